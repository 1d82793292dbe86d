/**
 * A parameter table's entry as an OpenAPI 3.1 Parameter Object. The tables are the one place parameters are
 * declared; this only translates their vocabulary (engine/http/parameter-spec.ts) into OpenAPI's.
 */
import type { ParameterSpec } from '../http/parameter-spec.ts';
import type { JsonSchema } from './schemas.ts';

/** The `name:value` grammar of a `filter` parameter, from the API's filter table. */
export interface FilterGrammarSpec {
  readonly name: string;
  readonly grammar: string;
  readonly values?: readonly string[];
  readonly help: string;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function valueSchema(spec: ParameterSpec, filters: readonly FilterGrammarSpec[]): JsonSchema {
  switch (spec.kind) {
    case 'text':
    case 'domain':
      return {
        type: 'string',
        ...(spec.minLength !== undefined ? { minLength: spec.minLength } : {}),
        ...(spec.maxLength !== undefined ? { maxLength: spec.maxLength } : {}),
      };
    case 'integer':
      return {
        type: 'integer',
        ...(spec.min !== undefined ? { minimum: spec.min } : {}),
        ...(spec.max !== undefined ? { maximum: spec.max } : {}),
      };
    case 'boolean':
      return { type: 'boolean' };
    case 'enum':
      return { type: 'string', enum: [...(spec.values ?? [])] };
    case 'field-text':
      // `<field>:<text>`, the text at least minLength and at most maxLength characters.
      return {
        type: 'string',
        pattern: `^(${(spec.values ?? []).map(escape).join('|')}):${spec.maxLength !== undefined ? `[\\s\\S]{${spec.minLength ?? 0},${spec.maxLength}}$` : `.{${spec.minLength ?? 0},}`}`,
      };
    case 'filter':
      return { type: 'string', pattern: `^(${filters.map((f) => escape(f.name)).join('|')}):` };
    case 'id-list':
      return { type: 'string', pattern: spec.maxListItems !== undefined ? `^\\d+(\\|\\d+){0,${spec.maxListItems - 1}}$` : '^\\d+(\\|\\d+)*$' };
  }
}

function description(spec: ParameterSpec, filters: readonly FilterGrammarSpec[]): string {
  if (spec.kind !== 'filter') return spec.help;
  const lines = filters.map((f) => `- \`${f.name}\` (${f.grammar}${f.values ? `: ${f.values.join(', ')}` : ''}): ${f.help}`);
  // A JSON schema cannot count `|` alternatives; the limits are said here (docs/api/limits.md).
  const limits = [
    spec.maxListItems !== undefined ? `at most ${spec.maxListItems} alternatives` : '',
    spec.maxLength !== undefined ? `a value after the colon of at most ${spec.maxLength} characters` : '',
  ].filter(Boolean);
  return `${spec.help}${limits.length ? ` (${limits.join(', ')})` : ''}\n\n${lines.join('\n')}`;
}

export function parameterObject(spec: ParameterSpec, filters: readonly FilterGrammarSpec[] = []): Record<string, unknown> {
  const value = valueSchema(spec, filters);
  if (spec.default !== undefined) value.default = spec.default;
  const schema: JsonSchema = spec.repeatable ? { type: 'array', items: value, ...(spec.maxItems !== undefined ? { maxItems: spec.maxItems } : {}) } : value;
  return {
    name: spec.name,
    in: spec.in,
    required: spec.in === 'path',
    description: description(spec, filters),
    schema,
    ...(spec.repeatable ? { style: 'form', explode: true } : {}),
    ...(spec.example !== undefined && spec.example !== '' ? { example: spec.repeatable ? [spec.example] : exampleValue(spec) } : {}),
  };
}

/** The example typed as the schema says (an integer's example is a number). */
function exampleValue(spec: ParameterSpec): string | number {
  return spec.kind === 'integer' ? Number(spec.example) : spec.example!;
}
