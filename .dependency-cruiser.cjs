/**
 * Layering rules of ARCHITECTURE.md ("Folders and who may import whom"), enforced in `npm test`.
 * test/ and bench/ are harnesses, not layers: they are not checked here.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'model-imports-nothing-of-ours',
      comment: 'core/model holds plain values and imports nothing of ours.',
      severity: 'error',
      from: { path: '^core/model/' },
      to: { path: '^(core|backtest|config|strategies)/', pathNot: '^core/model/' },
    },
    {
      name: 'core-stays-core',
      comment: 'core/* never imports backtest/, config/ or strategies/.',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: '^(backtest|config|strategies)/' },
    },
    {
      name: 'venue-only-from-config-and-paper-venue',
      comment: 'core/venue is imported only by config/ and backtest/paper-venue (and the test/ and bench/ harnesses).',
      severity: 'error',
      from: { pathNot: '^(core/venue|config|backtest/paper-venue|bench|test)/' },
      to: { path: '^core/venue/' },
    },
    {
      name: 'backtest-imports-core-only',
      comment: 'backtest/ imports core/ (and itself), never config/ or strategies/.',
      severity: 'error',
      from: { path: '^backtest/' },
      to: { path: '^(config|strategies)/' },
    },
    {
      name: 'strategies-use-public-api-only',
      comment: 'strategies/ import only the public strategy API (core/kernel/index.ts) and the model.',
      severity: 'error',
      from: { path: '^strategies/' },
      to: {
        path: '^(core|backtest|config)/',
        pathNot: ['^core/kernel/index\\.ts$', '^core/model/index\\.ts$'],
      },
    },
    {
      name: 'config-is-the-only-composition-root',
      comment: 'Nothing outside config/ imports config/ (except the test/ and bench/ harnesses).',
      severity: 'error',
      from: { pathNot: '^(config|bench|test)/' },
      to: { path: '^config/' },
    },
    {
      name: 'folders-expose-index-only',
      comment: "A folder's index.ts is its public face: nothing reaches into another folder's private files.",
      severity: 'error',
      from: { path: '^(core|backtest)/([^/]+)/' },
      to: {
        path: '^(core|backtest)/[^/]+/',
        pathNot: ['^$1/$2/', '^(core|backtest)/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
