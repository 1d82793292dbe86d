/**
 * The workbench's worker-side computations over the default datasets (250,000 rates, 30,000 websites),
 * timed in Node with sql.js: price figures for another contract year, a proposed price's rank, a pool of
 * exact titles, the export of every match, the roll-ups and a snapshot diff. Usage:
 *   npx tsx bench/workbench/run.ts [dataDir]   (default public/data, as `npm run data` writes it)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { loadSqlJs } from '../../adapters/node/datasets/sqljs-node.ts';
import { createEngine } from '../../engine/index.ts';
import { priceFigures } from '../../engine/ceilingrates/price-figures.ts';
import { exportAllCsv } from '../../engine/ceilingrates/export-all.ts';
import { websiteRollups } from '../../engine/site-scanning/rollups.ts';
import { diffWeeks, websitesSites } from '../../engine/site-scanning/week-diff.ts';

const dir = process.argv[2] ?? 'public/data';
const SQL = await loadSqlJs();
const open = (file: string) => new SQL.Database(gunzipSync(readFileSync(join(dir, file))));
const rates = open('ceilingrates.sqlite.gz');
const websites = open('websites.sqlite.gz');
const engine = createEngine();
engine.use('ceilingrates', rates);
engine.use('websites', websites);

function time(label: string, run: () => unknown, repeat = 5): void {
  run(); // warm: the column index is built on first use
  const samples: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const start = performance.now();
    run();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  console.log(`${label.padEnd(58)} median ${samples[Math.floor(repeat / 2)].toFixed(1)} ms`);
}

const q = (s: string) => new URLSearchParams(s);
time('API search keyword=engineer (reference)', () => engine.handle({ method: 'GET', url: '/api/v3/search/ceilingrates/?keyword=engineer' }));
time('price figures, next year, keyword=engineer', () => priceFigures(rates, q('keyword=engineer'), 'next_year_price'));
time('price figures, second year, every record', () => priceFigures(rates, q(''), 'second_year_price'));
time('price check (current year, proposed $120), every record', () => priceFigures(rates, q(''), 'current_price', 120));
time('pool of 3 exact titles', () => priceFigures(rates, q(''), 'current_price', null, ['Engineer II', 'Software Engineer', 'Systems Engineer']));
time(
  'export every match, keyword=engineer',
  () => {
    const a = exportAllCsv(rates, q('keyword=engineer'), []);
    if (a.ok) for (const _ of a.export.chunks());
  },
  3,
);
time(
  'export every record (250,000)',
  () => {
    const a = exportAllCsv(rates, q(''), []);
    if (a.ok) for (const _ of a.export.chunks());
  },
  1,
);
time('roll-up by agency, no filter', () => websiteRollups(websites, q(''), 'target_url_agency_owner'));
time('roll-up by bureau, one agency', () => websiteRollups(websites, q('target_url_agency_owner=Department of Defense'), 'target_url_bureau_owner'));
time('two weeks compared, 30,000 sites against themselves', () => diffWeeks(websitesSites(websites), websitesSites(websites)), 3);
