import type { AliasTable } from '../columns.ts';

/**
 * Canonical keys are the record's field names, plus the 2016 price list's yearly prices and contract
 * year and the s70 list's unit of issue. Aliases: the export's header names (data.md, every version), the
 * 2016-era `hourly_prices` names and the s70 price list's names, then the record's own name (JSON).
 * Names compare after `normaliseHeader` (case, spaces, spaces around `/`).
 */
export const CEILING_COLUMNS = {
  id: ['id', '_id'],
  idv_piid: ['Contract #', 'CONTRACT .', 'CONTRACT NUMBER', 'Contract', 'idv_piid'],
  business_size: ['Business Size', 'Bus Size', 'business_size'],
  schedule: ['Schedule', 'schedule'],
  worksite: ['Site', 'Location', 'Worksite', 'worksite'],
  contract_start: ['Begin Date', 'CONTRACT START DATE', 'contract_start'],
  contract_end: ['End Date', 'CONTRACT END DATE', 'contract_end'],
  cont_beg_dtg: ['cont_beg_dtg'],
  cont_end_dtg: ['cont_end_dtg'],
  dt_termg: ['dt_termg', 'Termination Date'],
  sin: ['SIN', 'SIN NUMBER', 'SIN(s)', 'sin'],
  vendor_name: ['Vendor Name', 'COMPANY NAME', 'vendor_name'],
  labor_category: ['Labor Category', 'SERVICE PROPOSED (e.g. Job Title/Task)', 'labor_category'],
  education_level: ['education Level', 'Education', 'MINIMUM EDUCATION/ CERTIFICATION LEVEL', 'education_level'],
  min_years_experience: ['Minimum Years Experience', 'MinExpAct', 'MINIMUM YEARS OF EXPERIENCE', 'min_years_experience'],
  current_price: ['Current Year Labor Price', 'CurrentYearPricing', 'PRICE OFFERED TO GSA (including IFF)', 'current_price'],
  next_year_price: ['Next Year Labor Price', 'next_year_price'],
  second_year_price: ['Second Year Labor Price', 'second_year_price'],
  security_clearance: ['Security Clearance', 'security_clearance'],
  category: ['Category', 'category'],
  subcategory: ['Subcategory', 'subcategory'],
  _timestamp: ['_timestamp'],
  year_1: ['Year 1/base', 'Year 1'],
  year_2: ['Year 2'],
  year_3: ['Year 3'],
  year_4: ['Year 4'],
  year_5: ['Year 5'],
  contract_year: ['Contract Year', 'CURRENT CONTRACT YEAR'],
  unit_of_issue: ['UNIT OF ISSUE (e.g. Hour, Task, Sq ft)', 'Unit of Issue'],
} as const satisfies AliasTable<string>;

export type CeilingColumn = keyof typeof CEILING_COLUMNS;
