/**
 * A websites database kept by an earlier version (one column per field, no stored record text: a user's
 * import in the browser's store) still answers after the upgrade, exactly as the same records imported today.
 */
import { describe, expect, it } from 'vitest';
import initSqlJs from 'sql.js';
import { WEBSITE_FIELDS, type WebsiteRecord } from '../../../engine/site-scanning/record.ts';
import { upgradeWebsitesLayout } from '../../../engine/site-scanning/upgrade.ts';
import { call, engineOver, generatedDatabase } from '../../../harness/engine.ts';

const SQL_TYPES = { boolean: 'INTEGER', number: 'REAL', text: 'TEXT', list: 'TEXT', object: 'TEXT' } as const;

/** The earlier layout: every field its own column, booleans 0/1, lists and objects as JSON text. */
function oldLayoutValue(kind: keyof typeof SQL_TYPES, value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (kind === 'boolean') return value ? 1 : 0;
  if (kind === 'list' || kind === 'object') return JSON.stringify(value);
  return value as string | number;
}

describe('a websites database in the earlier layout', () => {
  it("is rebuilt in today's layout and answers as the same records imported today", async () => {
    const today = engineOver('websites', await generatedDatabase('websites', 40));
    const records = call<{ items: WebsiteRecord[] }>(today, '/websites?limit=100').body.items;
    expect(records).toHaveLength(40);

    const SQL = await initSqlJs();
    const old = new SQL.Database();
    old.run(`CREATE TABLE websites (${WEBSITE_FIELDS.map(([name, kind]) => `"${name}" ${SQL_TYPES[kind]}`).join(', ')}, sort_key INTEGER)`);
    old.run('CREATE INDEX websites_by_target_url ON websites (target_url)');
    const insert = old.prepare(`INSERT INTO websites VALUES (${WEBSITE_FIELDS.map(() => '?').join(', ')}, ?)`);
    records.forEach((record, i) => insert.run([...WEBSITE_FIELDS.map(([name, kind]) => oldLayoutValue(kind, record[name as keyof WebsiteRecord])), i + 1]));
    insert.free();

    expect(upgradeWebsitesLayout(old)).toBe(true);
    expect(upgradeWebsitesLayout(old)).toBe(false);
    const upgraded = engineOver('websites', old);
    for (const url of ['/websites?limit=100', '/websites?limit=5&page=3', '/analysis', `/websites/${records[7].target_url}`]) {
      expect(call(upgraded, url).raw.body, url).toBe(call(today, url).raw.body);
    }
  });
});
