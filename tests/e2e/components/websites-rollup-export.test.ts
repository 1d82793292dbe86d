/** The websites roll-up as CSV: the query, snapshot date and source on top, the rows in the order shown, the total last. */
import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import type { RollupsAnswer } from '../../../ui/api/db-client.ts';
import { componentSessionPerFile } from './component-session.ts';
import { downloadedText } from '../../../harness/browsers/browser.ts';

const session = componentSessionPerFile();
const page = () => session().page;

/** Synthetic figures, small enough to check by hand. */
const rollups: RollupsAnswer = {
  ok: true,
  rollups: {
    group: 'target_url_agency_owner',
    rows: [
      { name: 'Agency A', sites: 4, live: 3, dap: 2, uswds: 1, banner: 0, statuses: { completed: 3, timeout: 1 } },
      { name: 'Agency B', sites: 10, live: 5, dap: 9, uswds: 0, banner: 1, statuses: { completed: 10 } },
      { name: null, sites: 1, live: 0, dap: 0, uswds: 0, banner: 0, statuses: { dns_resolution_error: 1 } },
    ],
    total: { name: null, sites: 15, live: 8, dap: 11, uswds: 1, banner: 1, statuses: { completed: 13, timeout: 1, dns_resolution_error: 1 } },
  },
};

describe('websites roll-up export', () => {
  it('exports the roll-up in the order shown, with the query and the source on top', async () => {
    await session().mount('websites-view', {
      properties: { params: { $searchParams: 'scan_status=completed&rollup_order=dap' } },
      answers: { websiteOwners: () => [], websiteRollups: () => rollups },
    });
    await page().locator('#rollup-table tbody tr').first().waitFor();
    const [download] = await Promise.all([
      page().waitForEvent('download'),
      page().locator('website-rollups').getByRole('button', { name: 'Export the roll-up as CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^websites-by-agency-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = Papa.parse<string[]>(await downloadedText(download), { skipEmptyLines: true }).data;
    expect(rows[0]).toEqual(['Query', 'scan_status=completed']);
    expect(rows[1]).toEqual(['Snapshot date', 'none (generated data)']);
    expect(rows[2][0]).toBe('Source');
    expect(rows[2][1]).toMatch(/^Synthetic/);
    const header = rows.findIndex((r) => r[0] === 'Agency');
    expect(rows[header]).toEqual([
      'Agency',
      'Sites',
      'Live',
      '% live',
      'DAP',
      '% DAP',
      'USWDS',
      '% USWDS',
      'Banner',
      '% banner',
      'Scan completed',
      'Scan dns_resolution_error',
      'Scan timeout',
    ]);
    // Most DAP first, as the table is sorted.
    expect(rows.slice(header + 1)).toEqual([
      ['Agency B', '10', '5', '50.0%', '9', '90.0%', '0', '0%', '1', '10.0%', '10', '0', '0'],
      ['Agency A', '4', '3', '75.0%', '2', '50.0%', '1', '25.0%', '0', '0%', '3', '0', '1'],
      ['(none)', '1', '0', '0%', '0', '0%', '0', '0%', '0', '0%', '0', '1', '0'],
      ['All matching sites', '15', '8', '53.3%', '11', '73.3%', '1', '6.7%', '1', '6.7%', '13', '1', '1'],
    ]);
  });
});
