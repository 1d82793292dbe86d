/**
 * `offline-gov-api review`: the bundled bin over a made-up price list (harness/price-list-xlsx.ts) and the
 * user's own ceiling rates, so the figures are known whatever the worktree has built.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './cli-process.ts';
import { priceListXlsx, workbook } from '../../../harness/price-list-xlsx.ts';

const HEADER =
  'Contract #,Business Size,Schedule,Site,Begin Date,End Date,SIN,Vendor Name,Labor Category,education Level,Minimum Years Experience,Current Year Labor Price';

let dir: string;
let rates: string;
let list: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'review-cli-'));
  rates = join(dir, 'rates.csv');
  const lines = [
    ['GS-00F-0001A', 'Program Manager', 'Masters', 10, 100],
    ['GS-00F-0002B', 'Program Manager', 'Masters', 9, 200],
    ['GS-00F-0003C', 'Senior Program Manager', 'Masters', 12, 300],
    ['GS-00F-0004D', 'Help Desk Technician', 'High School', 1, 40],
    ['GS-00F-0005E', 'Help Desk Technician', 'High School', 2, 44],
    // The list's own contract: never its own comparable.
    ['47QTCA20D0001', 'Help Desk Technician', 'High School', 1, 1000],
  ].map(([contract, title, education, years, price]) => `${contract},S,MAS,Customer,1/5/2020,1/4/2030,54151S,Vendor,${title},${education},${years},${price}`);
  writeFileSync(rates, [HEADER, ...lines].join('\n'));
  list = join(dir, 'list.xlsx');
  writeFileSync(
    list,
    priceListXlsx({
      contract: '47QTCA20D0001',
      vendor: 'EXAMPLE ANALYTICS LLC',
      rows: [
        { title: 'Program Manager', price: 250, education: 'Masters', minYears: 10 },
        { title: 'Help Desk Technician', price: 38, education: 'High_School', minYears: 1 },
        { title: 'Widget', price: 12, type: 'Product', unit: 'EA' },
        { title: '=Quantum Wrangler', price: 99, education: 'Bachelors', minYears: 3 },
      ],
    }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('offline-gov-api review', () => {
  it('writes one CSV line per hourly labor row under the fixed header, and says what it compared against on stderr', async () => {
    const { code, stdout, stderr } = await runCli(['review', list, '--ceilingrates', rates]);
    expect(code, stderr).toBe(0);
    expect(stdout.split('\r\n')).toEqual([
      'labor_category,current_price,education_level,min_years_experience,phrase,comparables,p25,median,p75,mean,sd_from_mean,percentile,flag',
      // 10 years: 7.5 to 12.5; the exact title has two (100, 200), the phrase is the title itself.
      'Program Manager,250,MA,10,program manager,2,125,150,175,150,1.41,100,above',
      'Help Desk Technician,38,HS,1,help desk technician,2,41,42,43,42,-1.41,0,below',
      "'=Quantum Wrangler,99,BA,3,,0,,,,,,,",
      '',
    ]);
    expect(stderr).toMatch(/EXAMPLE ANALYTICS LLC \(47QTCA20D0001\).*3 hourly labor rows reviewed against 6 rates\. Your file: rates\.csv/);
  });

  it('writes JSON with --format json, the data source with it', async () => {
    const { code, stdout } = await runCli(['review', list, '--format', 'json', '--ceilingrates', rates]);
    expect(code).toBe(0);
    const review = JSON.parse(stdout);
    expect(review).toMatchObject({ source: 'Your file: rates.csv', contract: '47QTCA20D0001', rates: 6 });
    expect(review.rows[0]).toMatchObject({ match: 'exact', comparables: 2, median: 150, titles: ['Program Manager'], years: [7.5, 12.5] });
  });

  it('refuses a file that is not a price list, with a clear message and a non-zero exit', async () => {
    const notAList = join(dir, 'other.xlsx');
    writeFileSync(notAList, workbook({ Sheet1: [['a', 'b']] }));
    for (const file of [notAList, rates]) {
      const { code, stdout, stderr } = await runCli(['review', file, '--ceilingrates', rates]);
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toMatch(/This file is not a GSA Catalog Platform price list \(.+\)\. Nothing was changed\./);
    }
  });

  it('says how it is used', async () => {
    const missing = await runCli(['review']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/review needs a price list/);
    const format = await runCli(['review', list, '--format', 'xml']);
    expect(format.stderr).toMatch(/--format must be csv or json/);
    const help = await runCli(['review', '--help']);
    expect(help.stdout).toContain('offline-gov-api review <price-list.xlsx> [--format csv|json]');
  });
});
