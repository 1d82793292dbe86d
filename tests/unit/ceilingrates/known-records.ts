/** A handful of hand-made records, each there to show one rule (the comment says which). */
import type { CeilingRateRecord } from '../../../engine/ceilingrates/record.ts';

type Overrides = Partial<CeilingRateRecord> & Pick<CeilingRateRecord, 'id' | 'labor_category' | 'current_price'>;

const base: Omit<CeilingRateRecord, 'id' | 'labor_category' | 'current_price'> = {
  vendor_name: 'Acme Consulting, LLC',
  idv_piid: 'GS-10F-0001A',
  schedule: 'MOBIS',
  sin: '874-1, 874-1RC',
  category: 'Professional Services',
  subcategory: 'Business Administrative Services',
  education_level: 'BA',
  min_years_experience: 5,
  worksite: 'Both',
  security_clearance: 'No',
  business_size: 'S',
  next_year_price: null,
  second_year_price: null,
  contract_start: '2015-06-01',
  contract_end: '2025-05-31',
  cont_beg_dtg: '20150601',
  cont_end_dtg: '20250531',
  dt_termg: null,
  _timestamp: '2026-08-01T06:00:00Z',
};

const record = (o: Overrides): CeilingRateRecord => {
  const merged = { ...base, ...o };
  // Keep the documented key order whatever order the overrides came in.
  return {
    id: merged.id, vendor_name: merged.vendor_name, idv_piid: merged.idv_piid, schedule: merged.schedule, sin: merged.sin,
    labor_category: merged.labor_category, category: merged.category, subcategory: merged.subcategory,
    education_level: merged.education_level, min_years_experience: merged.min_years_experience, worksite: merged.worksite,
    security_clearance: merged.security_clearance, business_size: merged.business_size, current_price: merged.current_price,
    next_year_price: merged.next_year_price, second_year_price: merged.second_year_price, contract_start: merged.contract_start,
    contract_end: merged.contract_end, cont_beg_dtg: merged.cont_beg_dtg, cont_end_dtg: merged.cont_end_dtg,
    dt_termg: merged.dt_termg, _timestamp: merged._timestamp,
  };
};

export const KNOWN: CeilingRateRecord[] = [
  // Worksite "Customer Facility" (site:customer), clearance Yes, two SIN codes with comma.
  record({ id: 1, labor_category: 'Program Manager', current_price: 150, education_level: 'BA', min_years_experience: 10, worksite: 'Customer Facility', security_clearance: 'Yes', next_year_price: 154.5, second_year_price: 159.14 }),
  // Upper-case variant with a trailing space: search trims and ignores case.
  record({ id: 2, labor_category: 'PROGRAM MANAGER ', current_price: 175.25, education_level: 'MA', min_years_experience: 12, worksite: 'Contractor Facility', security_clearance: 'No', next_year_price: 180 }),
  // SIN with semicolon and a decimal suffix; two subcategories.
  record({ id: 3, vendor_name: 'Beta Systems Inc.', idv_piid: 'GS-35F-0002B', schedule: 'IT Schedule 70', sin: '132-51.0;541-4B', labor_category: 'Software Engineer II', category: 'Information Technology', subcategory: 'IT Services; IT Professional Services', education_level: 'HS', min_years_experience: 3, worksite: 'Customer', security_clearance: 'None', business_size: 'O', current_price: 99.99, next_year_price: 102.5, second_year_price: 105 }),
  // Null clearance matches neither yes nor no.
  record({ id: 4, vendor_name: 'Beta Systems Inc.', idv_piid: 'GS-35F-0002B', schedule: 'IT Schedule 70', sin: '132-51', labor_category: 'Junior Software Engineer', category: 'Information Technology', subcategory: 'IT Services', education_level: 'AA', min_years_experience: 1, worksite: 'Both', security_clearance: null, business_size: 'O', current_price: 45.5 }),
  // SIN joined with the word "and"; As Required clearance.
  record({ id: 5, vendor_name: 'Gamma Federal Group', idv_piid: '47QTCA20D0003', schedule: 'MAS', sin: 'C871-1 and C871-2', labor_category: 'Administrative Assistant', category: 'Office Management', subcategory: 'Document Services', education_level: 'NONE', min_years_experience: 0, worksite: 'None', security_clearance: 'As Required', current_price: 27, dt_termg: '20200115' }),
  // Formula-looking text (CSV guard); the 9,999 placeholder price; N/A counts as "no".
  record({ id: 6, vendor_name: '=Danger Corp', idv_piid: 'GS-00F-0004C', sin: '874-4/874-4RC', labor_category: '-Data Analyst', education_level: 'OTHER', min_years_experience: 5, worksite: 'Customer Site', security_clearance: 'N/A', current_price: 9999 }),
  // "true" counts as yes; four-decimal price.
  record({ id: 7, labor_category: 'Project Manager', education_level: 'PHD', min_years_experience: 20, worksite: 'Contractor', security_clearance: 'true', current_price: 210.3333, next_year_price: 215 }),
  // Newline between SIN codes; a price whose two-decimal key equals record 5's ("27.00").
  record({ id: 8, vendor_name: 'Gamma Federal Group', idv_piid: '47QTCA20D0003', schedule: 'MAS', sin: '871-1\n871-2', labor_category: 'Senior Project Manager', category: 'Office Management', subcategory: 'Records Management', education_level: 'MA', min_years_experience: 15, worksite: 'Customer Facility', security_clearance: 'false', current_price: 27.004 }),
  // Same price as record 3: the tie breaks on id.
  record({ id: 9, vendor_name: 'Delta Analytics', idv_piid: 'GS-23F-0005D', schedule: 'PES', sin: '871-3 / 871-4', labor_category: 'Data Scientist', category: 'Scientific Management and Solutions', subcategory: 'Scientific Services', education_level: 'PHD', min_years_experience: 8, worksite: 'Customer', security_clearance: 'Yes', business_size: 'O', current_price: 99.99, next_year_price: 101 }),
  // Space-separated SIN codes.
  record({ id: 10, vendor_name: 'Delta Analytics', idv_piid: 'GS-23F-0005D', schedule: 'PES', sin: '871-3 871-5', labor_category: 'Business Analyst', category: 'Scientific Management and Solutions', subcategory: 'Scientific Services', education_level: 'BA', min_years_experience: 3, worksite: 'Both', security_clearance: 'No', business_size: 'O', current_price: 88.1 }),
];
