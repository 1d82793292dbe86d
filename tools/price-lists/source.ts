/** Where the shipped price lists came from (data/sources.json holds the same, with the counts the extract found). */
export const PRICE_LISTS_SOURCE = {
  what: "GSA MAS price lists (Catalog Platform): each contractor's hourly labor categories as GSA publishes its price list, joined with GSA eLibrary's per-SIN contractor lists (business size, category, subcategory)",
  publisher: 'GSA (U.S. General Services Administration)',
  repository: 'matthewbaumeister/PSAI-Website',
  commit: 'ce95307d0d062304f59ab0c50017ff6e41c8d6f9',
  paths: ['data/gsa_pricing/<contract>_pricelist.xlsx', 'data/gsa_schedules/GSA_MAS_<SIN>_20251105.xlsx'],
  rule: "rows whose Catalog Item Type is Commercial_Labor_Category priced per hour (HR), one record per row, no de-duplication; facts only: the vendor-written Description and every contact's name, phone and e-mail are left out",
  licence: "public information published by GSA (a work of the US government); the repository's own licence covers its software, not GSA's files",
} as const;
