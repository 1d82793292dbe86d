/** What a mapper reads a row through: canonical key → the raw value (a CSV cell or a JSON value). */
export interface SourceFields<K extends string> {
  /** Whether the file has a column (or the record a key) for this canonical key. */
  has(key: K): boolean;
  /** The raw value; undefined when the column is absent. */
  get(key: K): unknown;
  /**
   * Whether values come typed (JSON), where `""` and null are two values; in a CSV an empty cell is the only
   * way to write null, so `""` cannot be told from it.
   */
  readonly typed: boolean;
}

export type MapResult<R> = { ok: true; record: R } | { ok: false; reason: string };

/** A CSV row through its header's column map. */
export function csvFields<K extends string>(index: ReadonlyMap<K, number>, cells: readonly string[]): SourceFields<K> {
  return indexedFields(index, cells, false);
}

/** A JSON record through the same alias table as the CSV header. */
export function jsonFields<K extends string>(index: ReadonlyMap<K, string>, record: Record<string, unknown>): SourceFields<K> {
  return indexedFields(index, record, true);
}

/** A row through a map from each canonical key to where its value stands in the row (a cell's index, a key's name). */
function indexedFields<K extends string, P extends number | string>(
  index: ReadonlyMap<K, P>,
  row: Readonly<Record<P, unknown>>,
  typed: boolean,
): SourceFields<K> {
  return {
    typed,
    has: (key) => index.has(key),
    get: (key) => {
      const at = index.get(key);
      return at === undefined ? undefined : row[at];
    },
  };
}
