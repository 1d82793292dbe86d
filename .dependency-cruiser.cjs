/**
 * Layers point one way: engine ← dataset ← adapters ← ui. Build-time tools, tests, benchmarks and scripts
 * sit beside them and may read any layer; nothing that runs in the app imports them, and only tests read tests/
 * (what the others share with them is harness/). `npm run lint:layers`.
 */
const runtime = '^(engine|dataset|adapters|ui)/';
const buildTools = 'tools|harness|scripts|tests|bench';

/** A forbidden edge: nothing whose path matches `from` may import anything whose path matches `to`. */
const forbid = (name, from, to, comment) => ({
  name,
  ...(comment === undefined ? {} : { comment }),
  severity: 'error',
  from: typeof from === 'string' ? { path: from } : from,
  to: typeof to === 'string' ? { path: to } : to,
});

module.exports = {
  forbidden: [
    forbid('no-cycles', {}, { circular: true }),
    forbid('engine-stands-alone', '^engine/', `^(dataset|adapters|ui|${buildTools})/`, 'The engine is platform-free and knows no other layer.'),
    forbid('dataset-reads-only-the-engine', '^dataset/', `^(adapters|ui|${buildTools})/`),
    forbid('adapters-never-read-the-ui', '^adapters/', `^(ui|${buildTools})/`),
    forbid('browser-adapters-never-read-node-adapters', '^adapters/(db-worker|service-worker|browser)/', '^adapters/node/'),
    forbid(
      'route-once',
      '^(dataset|adapters|ui)/',
      '^engine/http/match\\.ts$',
      'A door hands its request to the engine router (engine/http/route.ts); only the engine matches paths.',
    ),
    forbid('ui-reads-no-build-tools', '^ui/', `^(${buildTools})/`),
    forbid(
      'only-tests-read-tests',
      { pathNot: '^tests/' },
      '^tests/',
      'What scripts, benchmarks and tools share with the tests lives in harness/; tests/ is read by tests alone.',
    ),
    forbid('nothing-at-run-time-reads-build-tools', runtime, '^(tools|harness)/'),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count too: a lower layer must not even name a higher one's types.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '(^|/)(node_modules|dist|dist-test|\\.tmp)/' },
  },
};
