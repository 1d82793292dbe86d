import { describe, expect, it } from 'vitest';
import { insertWebsites } from '../../../engine/site-scanning/schema.ts';
import { siteHistory, writeHistory } from '../../../engine/site-scanning/history.ts';
import { completed } from './fixtures.ts';
import { emptyDatabase } from '../helpers/engine.ts';

describe('a site across the shipped weeks', () => {
  it('lists the compared fields that differed, a site the week lacked, and one that did not change', async () => {
    const now = await emptyDatabase('websites');
    const then = await emptyDatabase('websites');
    insertWebsites(now, [
      completed('a.gsa.gov', 'gsa.gov', { dap_detected_final_url: true, scan_date: '2025-06-09T00:00:00.000Z', page_hash: 'new' }),
      completed('b.gsa.gov', 'gsa.gov'),
      completed('c.gsa.gov', 'gsa.gov'),
    ]);
    insertWebsites(then, [
      completed('a.gsa.gov', 'gsa.gov', { dap_detected_final_url: false, scan_date: '2025-02-10T12:00:00.000Z', page_hash: 'old' }),
      completed('c.gsa.gov', 'gsa.gov'),
    ]);
    writeHistory(now, '2025-06-09', then, '2025-02-10');
    const a = siteHistory(now, completed('a.gsa.gov', 'gsa.gov', { dap_detected_final_url: true }));
    // scan_date and the snapshot's further fields (page_hash) are not compared.
    expect(a).toEqual({
      date: '2025-06-09',
      weeks: [{ date: '2025-02-10', state: 'changed', changes: [{ field: 'dap_detected_final_url', then: false, now: true }] }],
    });
    expect(siteHistory(now, completed('b.gsa.gov', 'gsa.gov'))!.weeks).toEqual([{ date: '2025-02-10', state: 'absent', changes: [] }]);
    expect(siteHistory(now, completed('c.gsa.gov', 'gsa.gov'))!.weeks).toEqual([{ date: '2025-02-10', state: 'same', changes: [] }]);
  });

  it('is null for a dataset without history (an imported file)', async () => {
    const db = await emptyDatabase('websites');
    insertWebsites(db, [completed('a.gsa.gov', 'gsa.gov')]);
    expect(siteHistory(db, completed('a.gsa.gov', 'gsa.gov'))).toBeNull();
  });
});
