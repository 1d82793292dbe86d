/**
 * The ceiling-rate record: the contract's field table, top to bottom (the table's columns and the CSV export
 * follow this order). `_source` writes the same fields in production's order, SOURCE_FIELDS.
 */
export interface CeilingRateRecord {
  id: number;
  vendor_name: string;
  idv_piid: string;
  schedule: string;
  sin: string;
  labor_category: string;
  category: string;
  subcategory: string;
  education_level: string;
  min_years_experience: number;
  worksite: string;
  security_clearance: string | null;
  business_size: string;
  current_price: number;
  next_year_price: number | null;
  second_year_price: number | null;
  /** YYYY-MM-DD */
  contract_start: string;
  /** YYYY-MM-DD */
  contract_end: string;
  /** YYYYMMDD */
  cont_beg_dtg: string;
  /** YYYYMMDD */
  cont_end_dtg: string;
  /** YYYYMMDD, null while the contract has not been terminated. */
  dt_termg: string | null;
  /** ISO 8601 UTC datetime of the record's last load. */
  _timestamp: string;
}

/** Every field in the contract's order; the schema's columns and the insert follow it. */
export const RECORD_FIELDS = [
  'id',
  'vendor_name',
  'idv_piid',
  'schedule',
  'sin',
  'labor_category',
  'category',
  'subcategory',
  'education_level',
  'min_years_experience',
  'worksite',
  'security_clearance',
  'business_size',
  'current_price',
  'next_year_price',
  'second_year_price',
  'contract_start',
  'contract_end',
  'cont_beg_dtg',
  'cont_end_dtg',
  'dt_termg',
  '_timestamp',
] as const satisfies readonly (keyof CeilingRateRecord)[];

export type RecordField = (typeof RECORD_FIELDS)[number];

/**
 * The `_source` key order production writes, unchanged from 2024 to 2026: the example response in GSA's API
 * documentation (GSA/open-gsa-redesign, `_apidocs/dx-calc-api.md`, record 6340611, `_timestamp` 2024-05-02) and
 * responses recorded on 2026-10-10 (1102tools-dev/federal-contracting-mcps, gsa-calc-mcp test fixtures) list
 * the keys in this order. (2026 adds `data_source` after `contract_start`; docs/api/differences.md.)
 */
export const SOURCE_FIELDS = [
  'contract_end',
  'security_clearance',
  'next_year_price',
  'second_year_price',
  'vendor_name',
  'idv_piid',
  'business_size',
  'contract_start',
  'labor_category',
  'schedule',
  'cont_end_dtg',
  'min_years_experience',
  'sin',
  'worksite',
  'education_level',
  'id',
  'current_price',
  'dt_termg',
  'category',
  'subcategory',
  '_timestamp',
  'cont_beg_dtg',
] as const satisfies readonly RecordField[];

/** The table every ceilingrates database holds. */
export const CEILINGRATES_TABLE = 'ceilingrates';
