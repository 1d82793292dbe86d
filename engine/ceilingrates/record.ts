/**
 * The ceiling-rate record as the API returns it under `hits.hits[]._source`. Key order here IS the JSON
 * key order: the contract's field table, top to bottom.
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

/** Every field in `_source` order; the schema's columns and the SELECT lists follow it. */
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

/** The table every ceilingrates database holds. */
export const CEILINGRATES_TABLE = 'ceilingrates';
