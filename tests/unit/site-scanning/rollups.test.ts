/**
 * Roll-ups by agency and bureau against the API's own counts for the same filters (/websites totals with
 * the owner, final_url_live, dap_detected_final_url and scan_status filters added), and the design-system
 * and banner counts against plain SQL.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from 'sql.js';
import { call, engineOver, generatedDatabase } from '../../../harness/engine.ts';
import type { Engine } from '../../../engine/index.ts';
import { websiteRollups, type Rollups } from '../../../engine/site-scanning/rollups.ts';

let db: Database;
let engine: Engine;

beforeAll(async () => {
  db = await generatedDatabase('websites');
  engine = engineOver('websites', db);
});

const total = (query: string): number => call(engine, `/websites?${query}&limit=1`).body.meta.totalItems;
const sql = (text: string, params: (string | number)[]): number => Number(db.exec(text, params)[0].values[0][0]);

function rollups(query: string, group: 'target_url_agency_owner' | 'target_url_bureau_owner'): Rollups {
  const answer = websiteRollups(db, new URLSearchParams(query), group);
  if (!answer.ok) throw new Error(answer.message);
  return answer.rollups;
}

describe('website roll-ups', () => {
  it('per agency: every count equals the API’s total for the same filters', () => {
    const r = rollups('', 'target_url_agency_owner');
    expect(r.total.sites).toBe(total(''));
    expect(r.rows.reduce((n, row) => n + row.sites, 0)).toBe(r.total.sites);
    expect(r.rows.length).toBe(call(engine, '/analysis').body.totalAgencies);
    for (const row of r.rows.filter((x) => x.name !== null).slice(0, 8)) {
      const owner = `target_url_agency_owner=${encodeURIComponent(row.name!)}`;
      expect(row.sites).toBe(total(owner));
      expect(row.live).toBe(total(`${owner}&final_url_live=true`));
      expect(row.dap).toBe(total(`${owner}&dap_detected_final_url=true`));
      for (const [status, n] of Object.entries(row.statuses)) expect(n).toBe(total(`${owner}&scan_status=${status}`));
      expect(row.uswds).toBe(sql('SELECT COUNT(*) FROM websites WHERE target_url_agency_owner = ? AND ds_usa_classes > 0', [row.name!]));
      expect(row.banner).toBe(sql('SELECT COUNT(*) FROM websites WHERE target_url_agency_owner = ? AND ds_banner_heres_how = 1', [row.name!]));
    }
    // Largest first.
    expect(r.rows.map((x) => x.sites)).toEqual(r.rows.map((x) => x.sites).sort((a, b) => b - a));
  });

  it('per bureau of one agency, under the API’s filters', () => {
    const agency = rollups('', 'target_url_agency_owner').rows.find((x) => x.name !== null)!.name!;
    const filters = `target_url_agency_owner=${encodeURIComponent(agency)}&scan_status=completed`;
    const r = rollups(filters, 'target_url_bureau_owner');
    expect(r.total.sites).toBe(total(filters));
    for (const row of r.rows.filter((x) => x.name !== null)) {
      const bureau = `${filters}&target_url_bureau_owner=${encodeURIComponent(row.name!)}`;
      expect(row.sites).toBe(total(bureau));
      expect(row.live).toBe(total(`${bureau}&final_url_live=true`));
      expect(row.statuses).toEqual({ completed: row.sites });
    }
  });

  it('refuses a filter the API refuses, with its messages', () => {
    const answer = websiteRollups(db, new URLSearchParams('final_url_live=maybe'), 'target_url_agency_owner');
    expect(answer).toEqual({ ok: false, status: 400, message: (call(engine, '/websites?final_url_live=maybe').body.message as string[]).join('; ') });
  });
});
