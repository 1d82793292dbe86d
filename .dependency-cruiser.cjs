/**
 * Layers point one way: engine ← dataset ← adapters ← ui. Build-time tools, tests, benchmarks and scripts
 * sit beside them and may read any layer; nothing that runs in the app imports them, and only tests read tests/
 * (what the others share with them is harness/). `npm run lint:layers`.
 */
const layer = (name, path) => ({ name, path: `^${path}/` });
const runtime = '^(engine|dataset|adapters|ui)/';

module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'engine-stands-alone',
      comment: 'The engine is platform-free and knows no other layer.',
      severity: 'error',
      from: { path: '^engine/' },
      to: { path: '^(dataset|adapters|ui|tools|harness|scripts|tests|bench)/' },
    },
    {
      name: 'dataset-reads-only-the-engine',
      severity: 'error',
      from: { path: '^dataset/' },
      to: { path: '^(adapters|ui|tools|harness|scripts|tests|bench)/' },
    },
    {
      name: 'adapters-never-read-the-ui',
      severity: 'error',
      from: { path: '^adapters/' },
      to: { path: '^(ui|tools|harness|scripts|tests|bench)/' },
    },
    {
      name: 'browser-adapters-never-read-node-adapters',
      severity: 'error',
      from: { path: '^adapters/(db-worker|service-worker|browser)/' },
      to: { path: '^adapters/node/' },
    },
    {
      name: 'route-once',
      comment: 'A door hands its request to the engine router (engine/http/route.ts); only the engine matches paths.',
      severity: 'error',
      from: { path: '^(dataset|adapters|ui)/' },
      to: { path: '^engine/http/match\\.ts$' },
    },
    {
      name: 'ui-reads-no-build-tools',
      severity: 'error',
      from: { path: '^ui/' },
      to: { path: '^(tools|harness|scripts|tests|bench)/' },
    },
    {
      name: 'only-tests-read-tests',
      comment: 'What scripts, benchmarks and tools share with the tests lives in harness/; tests/ is read by tests alone.',
      severity: 'error',
      from: { pathNot: '^tests/' },
      to: { path: '^tests/' },
    },
    {
      name: 'nothing-at-run-time-reads-build-tools',
      severity: 'error',
      from: { path: runtime },
      to: { path: '^(tools|harness)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count too: a lower layer must not even name a higher one's types.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '(^|/)(node_modules|dist|dist-test|\\.tmp)/' },
  },
};
