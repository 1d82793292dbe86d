import { describe, expect, it } from 'vitest';
import { RECORD_FIELDS } from '../../../engine/ceilingrates/record.ts';
import type { ImportedCeilingRate } from '../../../dataset/import/ceilingrates/map.ts';
import { fixture, fixtureText, inChunks, noteOf, readAll } from './helpers.ts';

const NOW = '2026-09-01T12:00:00Z';

const EXPORT: ImportedCeilingRate[] = [
  {
    id: 1,
    vendor_name: 'Acme Analytics, LLC',
    idv_piid: 'GS-35F-0001A',
    schedule: 'MAS',
    sin: '54151S',
    labor_category: 'Senior Software Engineer II',
    category: 'Information Technology',
    subcategory: 'IT Professional Services',
    education_level: 'BA',
    min_years_experience: 5,
    worksite: 'Customer',
    security_clearance: 'Yes',
    business_size: 'S',
    current_price: 1234.5,
    next_year_price: 1271.54,
    second_year_price: 1300,
    contract_start: '2020-01-05',
    contract_end: '2025-01-04',
    cont_beg_dtg: '20200105',
    cont_end_dtg: '20250104',
    dt_termg: null,
    _timestamp: NOW,
  },
  {
    id: 2,
    vendor_name: 'Acme Analytics, LLC',
    idv_piid: 'GS-35F-0001A',
    schedule: 'MAS',
    sin: '54151S, 54151HACS',
    labor_category: 'Program Manager',
    category: 'Information Technology',
    subcategory: 'IT Professional Services;Highly Adaptive Cybersecurity Services (HACS)',
    education_level: 'MA',
    min_years_experience: 10,
    worksite: 'Customer Facility',
    security_clearance: 'No',
    business_size: 'S',
    current_price: 98.2,
    next_year_price: null,
    second_year_price: null,
    contract_start: '2019-12-31',
    contract_end: '2024-12-30',
    cont_beg_dtg: '20191231',
    cont_end_dtg: '20241230',
    dt_termg: null,
    _timestamp: NOW,
  },
  {
    id: 3,
    vendor_name: '"Quoted" Consulting, Inc.',
    idv_piid: '47QRAA20D0001',
    schedule: 'Professional Services',
    sin: '874-1 and 874-7',
    labor_category: 'Administrative Assistant ',
    category: 'Professional Services',
    subcategory: 'Business Administrative Services',
    education_level: 'HS',
    min_years_experience: 2,
    worksite: 'Both',
    security_clearance: 'None',
    business_size: 'O',
    current_price: 45,
    next_year_price: 46.35,
    second_year_price: 47.74,
    contract_start: '2019-03-04',
    contract_end: '2024-03-03',
    cont_beg_dtg: '20190304',
    cont_end_dtg: '20240303',
    dt_termg: null,
    _timestamp: NOW,
  },
  {
    id: 4,
    vendor_name: 'Beta Corp',
    idv_piid: 'GS-10F-0002B',
    schedule: 'PSS',
    sin: '874-1',
    labor_category: 'Associate\nConsultant, Level 1',
    category: '',
    subcategory: '',
    education_level: 'PHD',
    min_years_experience: 0,
    worksite: 'Contractor',
    security_clearance: 'As Required',
    business_size: 'O',
    current_price: 75,
    next_year_price: null,
    second_year_price: null,
    contract_start: '2019-07-01',
    contract_end: '2024-06-30',
    cont_beg_dtg: '20190701',
    cont_end_dtg: '20240630',
    dt_termg: null,
    _timestamp: NOW,
  },
  {
    id: 5,
    vendor_name: 'Gamma LLC',
    idv_piid: 'GS-10F-0003C',
    schedule: 'MAS',
    sin: '874-1',
    labor_category: '=Data Scientist',
    category: '',
    subcategory: '',
    education_level: 'PHD',
    min_years_experience: 15,
    worksite: 'Offsite',
    security_clearance: null,
    business_size: 'S',
    current_price: 9999,
    next_year_price: null,
    second_year_price: null,
    contract_start: '2021-07-01',
    contract_end: '2026-06-30',
    cont_beg_dtg: '20210701',
    cont_end_dtg: '20260630',
    dt_termg: null,
    _timestamp: NOW,
  },
  {
    id: 6,
    vendor_name: 'Zeta Group',
    idv_piid: 'GS-10F-0007G',
    schedule: 'MAS',
    sin: '874-1',
    labor_category: 'Technical Writer',
    category: '',
    subcategory: '',
    education_level: 'AA',
    min_years_experience: 4,
    worksite: 'Both',
    security_clearance: 'None',
    business_size: 'O',
    current_price: 88.4,
    next_year_price: 90.17,
    second_year_price: 91.97,
    contract_start: '2020-02-29',
    contract_end: '2025-02-28',
    cont_beg_dtg: '20200229',
    cont_end_dtg: '20250228',
    dt_termg: null,
    _timestamp: NOW,
  },
];

describe('ceiling-rate export CSV (metadata rows, then Contract #,…)', () => {
  it('maps each row field by field, ids assigned in file order', async () => {
    const { records, report } = await readAll(fixture('ceilingrates-export.csv'));
    expect(records).toEqual(EXPORT);
    expect(Object.keys(records[0])).toEqual([...RECORD_FIELDS]);
    expect(report.metadataRows).toBe(2);
  });

  it('gives the same records from 5-character chunks', async () => {
    const { records } = await readAll(inChunks(fixtureText('ceilingrates-export.csv'), 5));
    expect(records).toEqual(EXPORT);
  });

  it('rejects rows without a readable price or a labor category, and short rows, by line', async () => {
    const { report } = await readAll(fixture('ceilingrates-export.csv'));
    expect(report.rejected).toEqual([
      { line: 10, record: 6, reason: 'current price "N/A" is not a number' },
      { line: 11, record: 7, reason: 'no labor category' },
      { line: 12, record: 8, reason: '5 fields where the header has 17' },
    ]);
  });

  it('reports normalisations with the original text, and keeps text it cannot normalise', async () => {
    const { report } = await readAll(fixture('ceilingrates-export.csv'));
    expect(noteOf(report, 'current_price', '$ and thousands separator')?.examples[0]).toMatchObject({ line: 4, original: '$1,234.50', value: '1234.5' });
    expect(noteOf(report, 'contract_start', 'M/D/YYYY date')?.count).toBe(4);
    expect(noteOf(report, 'contract_start', 'M/D/YY date')?.examples[0]).toMatchObject({ original: '3/4/19', value: '2019-03-04' });
    expect(noteOf(report, 'education_level', 'education level spelled out')?.count).toBe(6);
    expect(noteOf(report, 'worksite', 'not a known worksite')).toMatchObject({
      outcome: 'kept-original',
      examples: [{ original: 'Offsite', value: 'Offsite' }],
    });
    expect(noteOf(report, 'labor_category', "spreadsheet guard ' removed")?.examples[0]).toMatchObject({ original: "'=Data Scientist" });
    expect(noteOf(report, 'min_years_experience', 'number taken from text')?.examples[0]).toMatchObject({ original: '10 years', value: '10' });
    // The rejected rows' values are not counted.
    expect(noteOf(report, 'current_price', 'not a number')).toBeUndefined();
  });
});

describe('older price lists in the real samples', () => {
  it('2016 hourly prices: Year N columns by contract year, spelled-out education, separators', async () => {
    const { records, report } = await readAll(fixture('ceilingrates-2016.csv'));
    expect(report.rowsRejected).toBe(0);
    expect(records[0]).toEqual({
      id: 1,
      vendor_name: 'SSG-Advisors, LLC',
      idv_piid: 'GS-10F-0274S',
      schedule: 'MOBIS',
      sin: '874-1, 874-1RC, 874-7, 874-7RC',
      labor_category: 'Project Manager',
      category: '',
      subcategory: '',
      education_level: 'BA',
      min_years_experience: 8,
      worksite: 'Both',
      security_clearance: null,
      business_size: 'S',
      current_price: 1013.38,
      next_year_price: 1031.63,
      second_year_price: 1050.19,
      contract_start: '2006-06-01',
      contract_end: '2021-05-31',
      cont_beg_dtg: '20060601',
      cont_end_dtg: '20210531',
      dt_termg: null,
      _timestamp: NOW,
    });
    // Row 3: no education, contract year 1, no later years.
    expect(records[2]).toMatchObject({
      education_level: '',
      current_price: 992,
      next_year_price: 992,
      labor_category: expect.stringMatching(/^Interpretation Services Class 4: Afrikan,Akan/),
    });
    // Row 8 (contract year 2, only Year 1 priced, no CurrentYearPricing): the Year 1 price holds, noted.
    expect(records[7]).toMatchObject({ labor_category: 'Subject Matter Expert', current_price: 957.18, next_year_price: null, second_year_price: null });
    expect(noteOf(report, 'current_price', 'price of an earlier contract year (current year empty)')?.count).toBe(1);
  });

  it('s70 price list: "small business", "$81.60 ", M/D/YY, "Bachelor\'s", "1 Years"', async () => {
    const { records, report } = await readAll(fixture('ceilingrates-s70.csv'));
    expect(report.rowsRejected).toBe(0);
    expect(records[0]).toEqual({
      id: 1,
      vendor_name: 'YAHYA TECHNOLOGIES, LLC',
      idv_piid: 'GS-35F-314CA',
      schedule: 'IT Schedule 70',
      sin: '132-51',
      labor_category: 'Strategic Planner Level III',
      category: '',
      subcategory: '',
      education_level: 'BA',
      min_years_experience: 20,
      worksite: 'Contractor',
      security_clearance: null,
      business_size: 'S',
      current_price: 491.94,
      next_year_price: null,
      second_year_price: null,
      contract_start: '2015-05-05',
      contract_end: '2020-05-04',
      cont_beg_dtg: '20150505',
      cont_end_dtg: '20200504',
      dt_termg: null,
      _timestamp: NOW,
    });
    expect(records[5]).toMatchObject({ labor_category: 'Senior Engineer', education_level: 'BA', current_price: 81.6, contract_start: '2012-10-17' });
    expect(records[7]).toMatchObject({ labor_category: 'IT Technician 1', education_level: 'NONE', min_years_experience: 1, current_price: 23.55 });
    expect(records[9]).toMatchObject({ education_level: 'BA' });
  });

  it('rejects a row priced per task rather than per hour', async () => {
    const csv =
      'SIN(s),SERVICE PROPOSED (e.g. Job Title/Task),MINIMUM EDUCATION/ CERTIFICATION LEVEL,MINIMUM YEARS OF EXPERIENCE,"UNIT OF ISSUE (e.g. Hour, Task, Sq ft)",PRICE OFFERED TO GSA (including IFF),CONTRACT NUMBER,VENDOR NAME,BUSINESS SIZE,SCHEDULE,WORKSITE,CURRENT CONTRACT YEAR,CONTRACT START DATE,CONTRACT END DATE\n' +
      '132-51,Analyst,BA,3,Per Hour,50,GS-1,V,S,IT Schedule 70,Both,1,1/1/15,1/1/20\n' +
      '132-51,Migration,BA,3,Task,5000,GS-1,V,S,IT Schedule 70,Both,1,1/1/15,1/1/20\n';
    const { records, report } = await readAll(csv);
    expect(records.map((r) => r.labor_category)).toEqual(['Analyst']);
    expect(report.rejected).toEqual([{ line: 3, record: 2, reason: 'priced per "Task", not per hour' }]);
  });
});

describe('ceiling-rate API pages (hits.hits[]._source)', () => {
  it('keeps ids, drops a hit repeated on a later page, gives an id-less hit max+1, normalises strings', async () => {
    const { records, report } = await readAll(fixture('ceilingrates-pages.json'));
    expect(records.map((r) => [r.id, r.labor_category, r.current_price])).toEqual([
      [7, 'Data Analyst', 101.25],
      [12, 'Project Manager', 150],
      [22, 'Trainer', 80.5],
      [21, 'Help Desk', 55.1],
    ]);
    expect(records[1]).toMatchObject({ education_level: 'MA', dt_termg: '20240101', _timestamp: '2026-08-03T04:12:33Z' });
    expect(records[3]).toMatchObject({ education_level: 'BA', contract_start: '2021-03-04', cont_beg_dtg: '20210304' });
    expect(report.rejected).toEqual([
      { line: null, record: 3, reason: 'duplicate id 12 (first at record 2)' },
      { line: null, record: 5, reason: 'no labor category' },
    ]);
  });

  it('reads one saved page', async () => {
    const { records } = await readAll(fixture('ceilingrates-page.json'));
    expect(records).toEqual([
      {
        id: 1,
        vendor_name: 'Acme Analytics, LLC',
        idv_piid: 'GS-35F-0001A',
        schedule: 'MAS',
        sin: '54151S',
        labor_category: 'Data Analyst',
        category: 'Information Technology',
        subcategory: 'IT Professional Services',
        education_level: 'BA',
        min_years_experience: 3,
        worksite: 'Customer',
        security_clearance: null,
        business_size: 'S',
        current_price: 101.25,
        next_year_price: 104.29,
        second_year_price: null,
        contract_start: '2020-01-05',
        contract_end: '2025-01-04',
        cont_beg_dtg: '20200105',
        cont_end_dtg: '20250104',
        dt_termg: null,
        _timestamp: '2026-08-03T04:12:33Z',
      },
    ]);
  });
});
