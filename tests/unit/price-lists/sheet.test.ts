import { describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import { READ_STEPS, readPriceListFile, storedParts } from '../../../dataset/price-lists/read-file.ts';
import { PriceListError } from '../../../dataset/price-lists/sheet.ts';
import { priceListRecords } from '../../../dataset/price-lists/records.ts';
import { priceListXlsx, workbook } from '../../../harness/price-list-xlsx.ts';

const list = {
  contract: '47QTCA20D0001',
  vendor: 'EXAMPLE ANALYTICS LLC',
  contractYear: 7,
  rows: [
    {
      title: 'Program Manager',
      price: 150.25,
      years: [140, 150.25, 155.5, 160, 165],
      education: 'Masters',
      minYears: 10,
      sin: '541611, 54151S',
      worksite: 'Customer_Facility',
      clearance: 'Yes',
    },
    { title: 'Widget', price: 12, type: 'Product', unit: 'EA' },
    { title: 'Analyst (daily)', price: 800, unit: 'DA' },
    { title: 'Help Desk', price: 45, education: 'High_School_Equivalent', minYears: 1, worksite: 'Virtual' },
  ],
};

describe('a Catalog Platform price list', () => {
  it('keeps the hourly labor rows with the year-labelled prices and no description', async () => {
    const read = await readPriceListFile(priceListXlsx(list));
    expect(read).toMatchObject({
      contract: '47QTCA20D0001',
      vendor: 'EXAMPLE ANALYTICS LLC',
      generated: '2025-09-22',
      start: '2020-06-01',
      end: '2040-05-31',
      contractYear: 7,
      otherRows: 2,
    });
    expect(read.rows).toEqual([
      {
        title: 'Program Manager',
        sin: '541611, 54151S',
        worksite: 'Customer_Facility',
        education: 'Masters',
        minYears: 10,
        clearance: 'Yes',
        price: 150.25,
        nextYear: 155.5,
        secondYear: 160,
      },
      expect.objectContaining({ title: 'Help Desk', education: 'High_School_Equivalent', minYears: 1, worksite: 'Virtual' }),
    ]);
    expect(JSON.stringify(read)).not.toContain('made-up description');
  });

  it('has no next-year price past the option period the list covers', async () => {
    const read = await readPriceListFile(priceListXlsx({ ...list, contractYear: 10, firstYear: 6 }));
    expect(read.rows[0]).toMatchObject({ nextYear: null, secondYear: null });
    const nine = await readPriceListFile(priceListXlsx({ ...list, contractYear: 9, firstYear: 6 }));
    expect(nine.rows[0]).toMatchObject({ nextYear: 165, secondYear: null });
  });

  it('maps the list words to the interface codes and joins SIN categories and business size', async () => {
    const read = await readPriceListFile(priceListXlsx(list));
    const joins = {
      category: (sin: string) =>
        ({ '541611': ['Professional Services', 'Business Administrative Services'], '54151S': ['Information Technology', 'IT Services'] })[sin] as
          [string, string] | undefined,
      businessSize: (contract: string) => (contract === '47QTCA20D0001' ? ('S' as const) : undefined),
    };
    const [manager, desk] = priceListRecords([read], joins, 7);
    expect(manager).toMatchObject({
      id: 7,
      idv_piid: '47QTCA20D0001',
      schedule: 'MAS',
      education_level: 'MA',
      worksite: 'Customer Facility',
      security_clearance: 'Yes',
      business_size: 'S',
      category: 'Professional Services; Information Technology',
      subcategory: 'Business Administrative Services; IT Services',
      contract_start: '2020-06-01',
      cont_end_dtg: '20400531',
      _timestamp: '2025-09-22T18:27:01.897Z',
    });
    expect(desk).toMatchObject({ id: 8, education_level: 'HS', worksite: 'Virtual', category: 'Professional Services' });
  });

  it('refuses a file that is not a price list, saying why', async () => {
    await expect(readPriceListFile(new TextEncoder().encode('Contract #,Labor Category\n'))).rejects.toThrow(
      /not a GSA Catalog Platform price list \(it is not an \.xlsx workbook\)/,
    );
    await expect(readPriceListFile(workbook({ Sheet1: [['a']] }))).rejects.toThrow(/no "Contractor Info" sheet/);
    const noTitle = workbook({
      'Contractor Info': [
        ['Vendor Name', 'X'],
        ['Vendor Contract Number', 'C1'],
        ['Price List Generation Date', '2025-01-01T00:00:00Z'],
      ],
      'Price List': [['Vendor Name', 'Price']],
    });
    await expect(readPriceListFile(noTitle)).rejects.toBeInstanceOf(PriceListError);
  });
});

describe('a large list, read without a worker of the unzip library', () => {
  // 3,000 rows: a Price List part of several MB, which fflate's asynchronous unzip would inflate in a blob: worker.
  const large = priceListXlsx({ ...list, rows: Array.from({ length: 3000 }, (_, i) => ({ title: `Engineer ${i}`, price: 100 + (i % 50) })) });

  it('hands read-excel-file every part stored (copied, never inflated, so no worker starts), and reads every row', async () => {
    const parts: { name: string; compression: number; originalSize: number }[] = [];
    unzipSync(new Uint8Array(storedParts(large)), { filter: (part) => (parts.push(part), false) });
    // The parts read-excel-file reads (its own filter: `.xml` and `.xml.rels`), every one of them.
    expect(parts.map((p) => p.name).sort()).toEqual(
      Object.keys(unzipSync(large))
        .filter((name) => /\.xml(\.rels)?$/.test(name))
        .sort(),
    );
    expect(parts.every((p) => p.compression === 0)).toBe(true);
    expect(Math.max(...parts.map((p) => p.originalSize))).toBeGreaterThan(512 * 1024);
    const steps: string[] = [];
    const read = await readPriceListFile(large, (step) => steps.push(step));
    expect(steps).toEqual([...READ_STEPS]);
    expect(read.rows).toHaveLength(3000);
  });

  it('refuses a workbook whose parts would inflate beyond the bound, before inflating them', () => {
    expect(() => storedParts(large, 1024 * 1024)).toThrow(/sheets hold \d+ MB of XML; a price list is read up to 1 MB\. Nothing was changed\./);
  });
});

describe('experience in whole years', () => {
  it('rounds a fraction of a year down, as the integer field holds it', async () => {
    const read = await readPriceListFile(
      priceListXlsx({
        ...list,
        rows: [
          { title: 'Intern', price: 20, minYears: 0.5 },
          { title: 'Aide', price: 30, minYears: 1.5 },
        ],
      }),
    );
    expect(read.rows.map((r) => r.minYears)).toEqual([0.5, 1.5]);
    const joins = { category: () => undefined, businessSize: () => undefined };
    expect(priceListRecords([read], joins).map((r) => r.min_years_experience)).toEqual([0, 1]);
  });
});
