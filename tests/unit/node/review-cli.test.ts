/**
 * `offline-gov-api review`: the bundled bin over a made-up price list (harness/price-list-xlsx.ts) and the
 * user's own ceiling rates, so the figures are known whatever the worktree has built.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  it('writes the memo-ready CSV: what was reviewed, against what and how, then one line per hourly labor row; stderr says what it compared against', async () => {
    const { code, stdout, stderr } = await runCli(['review', list, '--ceilingrates', rates, '--min-comparables', '2']);
    expect(code, stderr).toBe(0);
    const lines = stdout.split('\r\n');
    const header = lines.findIndex((line) => line.startsWith('row,'));
    const notes = Object.fromEntries(lines.slice(0, header).map((line) => [line.slice(0, line.indexOf(',')), line.slice(line.indexOf(',') + 1)]));
    expect(notes).toMatchObject({
      'Price list review': 'EXAMPLE ANALYTICS LLC (47QTCA20D0001)',
      Vendor: 'EXAMPLE ANALYTICS LLC',
      'Contract number': '47QTCA20D0001',
      'Price list generated': '2025-09-22',
      'Hourly labor rows': '3',
      'Compared with': 'Your file: rates.csv',
      'Rates in the data': '6',
      'Minimum comparables': '2',
      'Reviewed on': new Date().toISOString().slice(0, 10),
    });
    expect(notes.Method).toMatch(
      /^"Comparables of each hourly labor row: rates of the same normalised title, else of the longest run of its words that finds at least 2 /,
    );
    expect(lines.slice(header)).toEqual([
      'row,labor_category,sin,current_price,education_level,min_years_experience,experience_band,match,comparables,comparison,p25,median,p75,mean,sd,sd_from_mean,percentile,vs_median_percent,flag',
      // 10 years: 7.5 to 12.5; the exact title has two (100, 200); sample sd √5000 ≈ 70.71.
      '1,Program Manager,541611,250,MA,10,7.5-12.5,exact title,2,1,125,150,175,150,70.71,1.41,100,66.7,above p75',
      // The list's own contract's $1,000 is left out.
      '2,Help Desk Technician,541611,38,HS,1,0-3,exact title,2,2,41,42,43,42,2.83,-1.41,0,-9.5,below p25',
      "3,'=Quantum Wrangler,541611,99,BA,3,1-5,none,0,,,,,,,,,,too few comparables",
      '',
    ]);
    expect(stderr).toMatch(/EXAMPLE ANALYTICS LLC \(47QTCA20D0001\).*3 hourly labor rows reviewed against 6 rates\. Your file: rates\.csv/);
  });

  it('judges no price on fewer than the minimum (5 by default), and lists the compared rates with --compared', async () => {
    const compared = join(dir, 'compared.csv');
    const { code, stdout } = await runCli(['review', list, '--ceilingrates', rates, '--compared', compared]);
    expect(code).toBe(0);
    expect(stdout).toContain('\r\n1,Program Manager,541611,250,MA,10,7.5-12.5,exact title,2,1,125,150,175,150,70.71,1.41,100,66.7,too few comparables\r\n');
    expect(readFileSync(compared, 'utf8').split('\r\n')).toEqual([
      'comparison,match,contract,vendor,labor_category,sin,current_price,education_level,min_years_experience,id',
      '1,exact title,GS-00F-0001A,Vendor,Program Manager,54151S,100,MA,10,1',
      '1,exact title,GS-00F-0002B,Vendor,Program Manager,54151S,200,MA,9,2',
      '2,exact title,GS-00F-0004D,Vendor,Help Desk Technician,54151S,40,HS,1,4',
      '2,exact title,GS-00F-0005E,Vendor,Help Desk Technician,54151S,44,HS,2,5',
      '',
    ]);
  });

  it('writes JSON with --format json and the printable page with --format html, the data source with them', async () => {
    const { code, stdout } = await runCli(['review', list, '--format', 'json', '--ceilingrates', rates]);
    expect(code).toBe(0);
    const review = JSON.parse(stdout);
    expect(review).toMatchObject({
      source: { label: 'Your file: rates.csv' },
      contract: '47QTCA20D0001',
      rates: 6,
      options: { minComparables: 5, onePerOffer: true },
    });
    expect(review.rows[0]).toMatchObject({ match: 'exact', comparables: 2, median: 150, titles: ['Program Manager'], years: [7.5, 12.5], flag: 'too few' });
    const page = await runCli(['review', list, '--format', 'html', '--ceilingrates', rates]);
    expect(page.stdout).toMatch(/^<!doctype html>/);
    expect(page.stdout).toContain('<h1>Price list review: EXAMPLE ANALYTICS LLC (47QTCA20D0001)</h1>');
    expect(page.stdout).toContain('<td>=Quantum Wrangler</td>');
    expect(page.stdout).not.toMatch(/<script/i);
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
    expect(format.stderr).toMatch(/--format must be csv, json, html, not "xml"/);
    const minimum = await runCli(['review', list, '--min-comparables', '1']);
    expect(minimum.code).toBe(1);
    expect(minimum.stderr).toMatch(/--min-comparables: the minimum of comparables is a whole number from 2 to 1000, not 1/);
    const help = await runCli(['review', '--help']);
    expect(help.stdout).toContain('offline-gov-api review <price-list.xlsx> [--format csv|json|html] [--compared <file.csv>]');
  });
});
