import { websitesTarget } from '../../../dataset/import/websites/target.ts';
import { ceilingRatesTarget } from '../../../dataset/import/ceilingrates/target.ts';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { JsonSplitter, type JsonPath } from '../../../dataset/import/json-stream.ts';
import { recordPlace } from '../../../dataset/import/json-records.ts';
import { ImportError } from '../../../dataset/import/errors.ts';

/** The values the splitter cuts out of `text` fed in `parts`, with their places. */
function split(parts: string[], place: (path: JsonPath) => boolean = recordPlace(ceilingRatesTarget.json.page)): { path: JsonPath; value: unknown }[] {
  const splitter = new JsonSplitter(place);
  const out = parts.flatMap((part) => splitter.push(part));
  out.push(...splitter.end());
  return out.map(({ path, value }) => ({ path, value }));
}

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ImportError) return error.code;
    throw error;
  }
  return 'ok';
}

describe('JsonSplitter', () => {
  const page =
    '{"took":3,"hits":{"total":{"value":2},"hits":[{"_id":"1","_source":{"id":1,"k":"a\\"b,]}"}},{"_source":{"id":2,"x":[[1],{"y":null}]}}]},"tail":[1,2]}';

  it('cuts out hits.hits[*] wherever the chunks end, and nothing else', () => {
    const expected = JSON.parse(page).hits.hits.map((value: unknown, i: number) => ({ path: ['hits', 'hits', i], value }));
    for (let at = 0; at <= page.length; at++) expect(split([page.slice(0, at), page.slice(at)])).toEqual(expected);
  });

  it('cuts a saved page inside a top-level array into its records, and keeps a plain element whole', () => {
    const text = '[{"items":[{"a":1},{"b":2}],"meta":{"n":2}},{"initial_domain":"x.gov","items_seen":[1]}]';
    expect(split([text], recordPlace(websitesTarget.json.page))).toEqual([
      { path: [0, 'items', 0], value: { a: 1 } },
      { path: [0, 'items', 1], value: { b: 2 } },
      { path: [1], value: { initial_domain: 'x.gov', items_seen: [1] } },
    ]);
    const pages = '[{"took":1,"hits":{"hits":[{"_source":{"id":5}}]}}]';
    expect(split([pages])).toEqual([{ path: [0, 'hits', 'hits', 0], value: { _source: { id: 5 } } }]);
  });

  it('reads escaped keys as the keys they name', () => {
    expect(split(['{"it\\u0065ms":[{"a":1}]}'], recordPlace(websitesTarget.json.page))).toEqual([{ path: ['items', 0], value: { a: 1 } }]);
  });

  it('accepts exactly what JSON.parse accepts, for random documents cut anywhere', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue({ maxDepth: 4 }), { maxLength: 6 }), fc.nat(), (records, cut) => {
        const text = JSON.stringify(records, null, cut % 2 ? 1 : undefined);
        const at = cut % (text.length + 1);
        // JSON.stringify writes -0 as 0: compare with what JSON.parse reads back.
        expect(split([text.slice(0, at), text.slice(at)])).toEqual(JSON.parse(text).map((value: unknown, i: number) => ({ path: [i], value })));
      }),
      { seed: 505, numRuns: 300 },
    );
  });

  it('calls damaged JSON malformed, and JSON that stops early truncated', () => {
    for (const bad of ['[{"a":1} {"b":2}]', '[1,2,]', '{"a":1,}', '[tru]', '[01]', '["a\u0001"]', '{"hits" {"hits":[]}}', '[1] x', '{"a":1}}']) {
      expect([bad, codeOf(() => split([bad]))]).toEqual([bad, 'malformed']);
    }
    for (const cut of ['[{"a":1}', '[{"a":"x', '{"hits":{"hits":[', '[1,', '[12']) {
      expect([cut, codeOf(() => split([cut]))]).toEqual([cut, 'truncated']);
    }
  });

  it('keeps the nesting of a 1,000,000-deep value in one byte per level and parses no part of it outside a record', () => {
    const deep = `{"hits":{"hits":[{"id":1},{"x":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}]}}`;
    const out = split([deep], (path) => path.length === 3 && path[2] === 0);
    expect(out).toEqual([{ path: ['hits', 'hits', 0], value: { id: 1 } }]);
  });
});
