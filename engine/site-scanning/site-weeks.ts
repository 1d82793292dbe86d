/**
 * One site's record in every week, as one value (the weeks' blocks hold these: weeks-schema.ts): per stored field,
 * in WEBSITE_FIELDS order, its value when it is the same in every week the site is listed, else its runs
 * `[[from week, value], …]` oldest first, each holding until the next one's week. A value is the field's stored
 * text (stored-record.ts: its JSON text, '' for none), but for two fields:
 * - scan_date is WEEK_DAY when it is the week's own day: from 2025-02-18 the published records have none, and the
 *   import gives each the day of its week, which would make every record differ every week;
 * - third_party_service_urls is the numbers of its items in the weeks' item list, comma-separated: its lists of
 *   URLs, of a few hundred thousand distinct URLs, were 185 MB as texts.
 * `SiteWeeksBuilder` (the build) and `recordAt` (every door, at run time) are this format's two sides.
 */
import { WEBSITE_FIELDS } from './record.ts';
import { FIELD_SEPARATOR } from './stored-record.ts';

/** A field's value in one week: its stored text, or WEEK_DAY for scan_date. */
export type WeekValue = string | typeof WEEK_DAY;
/** A field over the weeks: one value, or its runs. */
export type FieldWeeks = WeekValue | [number, WeekValue][];
export type SiteWeeks = FieldWeeks[];

/** scan_date's value when it is the day of the week itself. */
export const WEEK_DAY = 0;

const SCAN_DATE = WEBSITE_FIELDS.findIndex(([name]) => name === 'scan_date');
const ITEMS_FIELD = WEBSITE_FIELDS.findIndex(([name]) => name === 'third_party_service_urls');

/** The stored text scan_date has when it is the week's day (the import's `${date}T00:00:00.000Z`). */
export const weekDayText = (date: string): string => JSON.stringify(`${date}T00:00:00.000Z`);

/** The value in effect in `week` (runs are oldest first and cover every week the site is listed). */
function valueAt(field: FieldWeeks, week: number): WeekValue {
  if (!Array.isArray(field)) return field;
  let value = field[0][1];
  for (let i = 1; i < field.length && field[i][0] <= week; i++) value = field[i][1];
  return value;
}

/**
 * The site's stored record text (stored-record.ts) in `week`, whose day's scan_date text is `day`; `items` are the
 * item list's JSON texts. The caller knows the site is listed that week (the rows say which weeks it is).
 */
export function recordAt(site: SiteWeeks, week: number, day: string, items: () => readonly string[]): string {
  let text = '';
  for (let f = 0; f < site.length; f++) {
    const value = valueAt(site[f], week);
    if (f > 0) text += FIELD_SEPARATOR;
    if (value === WEEK_DAY) text += day;
    else if (f === ITEMS_FIELD && value !== '') {
      const list = items();
      text += `[${value
        .split(',')
        .map((n) => list[Number(n)])
        .join(',')}]`;
    } else text += value;
  }
  return text;
}

/**
 * Builds sites' weeks from their records' stored texts, given newest week first (the order data/'s chain is read in):
 * `add` a site's record in each week, then `site` its value. Item numbers are given in order of first sight here;
 * `finish` renumbers them most used first (the lists then write shorter numbers) and gives the item list.
 */
export class SiteWeeksBuilder {
  /**
   * Per site, each field as gathered so far: its one value while it has not changed (the run then starts at the
   * oldest week added), or its runs newest first; and the oldest week added. Most fields never change: a bare value
   * keeps the builder's memory to a value a field.
   */
  private readonly sites = new Map<string, { fields: FieldWeeks[]; last: number }>();
  private readonly itemNumbers = new Map<string, number>();
  private readonly itemUses: number[] = [];

  /**
   * The site's field texts in `week` (stored-record.ts storedTexts: strings of their own, where pieces cut from
   * the stored text would each keep the whole record alive); weeks are added newest first.
   */
  add(site: string, week: number, texts: readonly string[], date: string): void {
    if (texts.length !== WEBSITE_FIELDS.length) throw new Error(`the week ${date}: a record of ${texts.length} fields`);
    let entry = this.sites.get(site);
    if (!entry) this.sites.set(site, (entry = { fields: [], last: week + 1 }));
    if (week >= entry.last) throw new Error(`the week ${date}: the site ${site} added twice, or weeks not newest first`);
    const oldest = entry.last;
    entry.last = week;
    const day = weekDayText(date);
    const { fields } = entry;
    texts.forEach((text, f) => {
      const value: WeekValue = f === SCAN_DATE && text === day ? WEEK_DAY : f === ITEMS_FIELD && text !== '' ? this.itemsOf(text) : text;
      const field = fields[f];
      if (field === undefined) fields[f] = value;
      else if (!Array.isArray(field)) {
        // Runs are gathered newest first: the one value so far ran back to the oldest week added before this one.
        if (field !== value)
          fields[f] = [
            [oldest, field],
            [week, value],
          ];
      } else {
        const newest = field[field.length - 1];
        // A run that goes on back in time takes this week as its start.
        if (newest[1] === value) newest[0] = week;
        else field.push([week, value]);
      }
    });
  }

  private itemsOf(text: string): string {
    return (JSON.parse(text) as unknown[])
      .map((item) => {
        const key = JSON.stringify(item);
        let n = this.itemNumbers.get(key);
        if (n === undefined) {
          this.itemNumbers.set(key, (n = this.itemUses.length));
          this.itemUses.push(0);
        }
        this.itemUses[n]++;
        return n;
      })
      .join(',');
  }

  /** The item list (JSON texts, most used first) and each site's weeks in that numbering. */
  finish(): { items: string[]; sites: Map<string, SiteWeeks> } {
    const order = [...this.itemNumbers.entries()].sort(([a, x], [b, y]) => this.itemUses[y] - this.itemUses[x] || (a < b ? -1 : a > b ? 1 : 0));
    const renumbered = new Array<number>(order.length);
    order.forEach(([, n], i) => (renumbered[n] = i));
    const renumber = (value: WeekValue): WeekValue =>
      value === '' || value === WEEK_DAY
        ? value
        : value
            .split(',')
            .map((n) => renumbered[Number(n)])
            .join(',');
    const sites = new Map<string, SiteWeeks>();
    for (const [site, { fields }] of this.sites) {
      sites.set(
        site,
        fields.map((field, f) => {
          const value = (v: WeekValue): WeekValue => (f === ITEMS_FIELD ? renumber(v) : v);
          return Array.isArray(field) ? field.reverse().map(([week, v]): [number, WeekValue] => [week, value(v)]) : value(field);
        }),
      );
    }
    return { items: order.map(([key]) => key), sites };
  }
}
