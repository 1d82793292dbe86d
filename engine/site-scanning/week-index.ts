/**
 * The filter index (filter-index.ts) of every version of every site's columns at once (the weeks' rows,
 * weeks-schema.ts), in listing order, with the weeks each holds for: a week's selection is the index's, less the
 * versions of other weeks. Each week's listing order is the rows' (`listed`), so a week's positions come out in
 * its own order, as its import would list them.
 */
import type { Database } from 'sql.js';
import { FilterIndex } from './filter-index.ts';
import { FILTER_NAMES } from './parameters.ts';
import type { WebsiteFilters } from './parse-query.ts';
import { ROWS_TABLE } from './weeks-schema.ts';

export class WeekIndex {
  /** Each week's positions, made on its first unfiltered request. */
  private readonly every = new Map<number, Uint32Array>();

  private constructor(
    private readonly index: FilterIndex,
    /** By position: the version's site, its first week and the week after its last. */
    private readonly site: Float64Array,
    private readonly from: Float64Array,
    private readonly to: Float64Array,
  ) {}

  static load(db: Database): WeekIndex {
    const { index, carried } = FilterIndex.read(db, ROWS_TABLE, 'listed', ['site', 'valid_from', 'valid_to']);
    const [site, from, to] = carried;
    return new WeekIndex(index, site, from, to);
  }

  /** The positions of the week's records equal to every given filter, in the week's listing order. */
  select(filters: WebsiteFilters, week: number): Uint32Array {
    const unfiltered = FILTER_NAMES.every((name) => filters[name] === undefined);
    const known = unfiltered ? this.every.get(week) : undefined;
    if (known) return known;
    const { positions } = this.index.select(filters);
    const out = new Uint32Array(positions.length);
    let n = 0;
    for (const position of positions) if (this.from[position] <= week && week < this.to[position]) out[n++] = position;
    const selected = out.slice(0, n);
    if (unfiltered) this.every.set(week, selected);
    return selected;
  }

  distinctCounts(positions: Uint32Array): { final_url_domain: number; target_url_agency_owner: number } {
    return this.index.distinctCounts(positions);
  }

  /** The sites of positions[offset, offset + limit). */
  sites(positions: Uint32Array, offset: number, limit: number): number[] {
    return Array.from(positions.subarray(offset, offset + limit), (position) => this.site[position]);
  }
}
