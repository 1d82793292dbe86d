/**
 * The vocabulary of the APIs' parameter tables (engine/site-scanning/parameters.ts,
 * engine/ceilingrates/parameters.ts). Each table is the one place a parameter is declared: the engine's
 * parsers, the UI's query state, the API console and an OpenAPI document all read it.
 */

/**
 * What a parameter's value is, as an OpenAPI schema would say it:
 * - `text`: any string; `domain`: a string the service checks as a URL address (`format: uri`);
 * - `integer`: digits (Site Scanning also takes a decimal and floors it);
 * - `boolean`: `true`/`false` (Site Scanning also takes `1`/`0`);
 * - `enum`: one of `values`;
 * - `field-text`: `<field>:<text>`, the field one of `values`;
 * - `filter`: `<name>:<value>`, the name and its value grammar from the API's filter table;
 * - `id-list`: record ids joined with `|`.
 */
export type ParameterKind = 'text' | 'domain' | 'integer' | 'boolean' | 'enum' | 'field-text' | 'filter' | 'id-list';

export interface ParameterSpec {
  readonly name: string;
  /** Where the value travels: the query string or a `{name}` segment of the path. */
  readonly in: 'query' | 'path';
  readonly kind: ParameterKind;
  /** `enum`: the accepted values; `field-text`: the accepted fields. */
  readonly values?: readonly string[];
  /** The value the API uses when the parameter is absent. */
  readonly default?: number | string | boolean;
  /** Inclusive bounds of an `integer`. */
  readonly min?: number;
  readonly max?: number;
  /** Shortest accepted text (`keyword`; the text after the colon of a `field-text`). */
  readonly minLength?: number;
  /** Shorter texts are accepted and answer empty rather than refused (a typeahead's first key press). */
  readonly emptyBelow?: number;
  /** Longest accepted value, in characters (OpenAPI `maxLength`); of a `field-text` or `filter`, the text after the colon. */
  readonly maxLength?: number;
  /** A repeatable parameter: the most values a request may give (OpenAPI `maxItems`). */
  readonly maxItems?: number;
  /** An `id-list` or a `filter`: the most `|`-separated items (ids; alternatives of one filter). */
  readonly maxListItems?: number;
  /** May be given several times (`name=a&name=b`: OpenAPI `style: form, explode: true`). */
  readonly repeatable?: boolean;
  /** A typical value, as a user would type it. */
  readonly example?: string;
  /** One short user-facing line. */
  readonly help: string;
}

/** A route of an API: its name (the handler's), the engine's match pattern, and the documented path. */
export interface RouteTableEntry {
  readonly name: string;
  /** `*name` takes the rest of the path, slashes included. */
  readonly pattern: string;
  /** The path as documented, `{name}` for a path parameter. */
  readonly path: string;
  readonly summary: string;
  readonly parameters: readonly ParameterSpec[];
}

/** The names of a table, as a literal-typed tuple element type. */
export type NameOf<T extends readonly { readonly name: string }[]> = T[number]['name'];

export function names<const T extends readonly { readonly name: string }[]>(table: T): NameOf<T>[] {
  return table.map((entry) => entry.name);
}

/**
 * Bounds on a whole query string, whatever its parameters: the number of `name=value` pairs (unknown names
 * included) and its length in characters, as sent (percent-encoded).
 */
export const QUERY_LIMITS = { maxParameters: 200, maxLength: 65_536 } as const;
