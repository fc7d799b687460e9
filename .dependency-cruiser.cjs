// The import rules of ARCHITECTURE.md's layers, checked by `npm test` (scripts/check-imports).
// Each folder of src/ may import only the folders listed for it; everything may import the
// machinery floor, which imports nothing of ours. No cycles anywhere.
const LIBS = ['machinery', 'schema', 'codec', 'patch'];
const allowed = {
  machinery: [],
  storage: [],
  schema: [],
  codec: ['schema'],
  patch: ['schema'],
  actors: ['storage'],
  cache: ['storage', 'codec', 'schema'],
  registry: ['actors', 'cache', 'storage', ...LIBS],
  auth: ['registry', ...LIBS],
  // kapi's own API clients (REST, informers, event recorders), and the node agent built on them.
  client: [],
  agent: ['client'],
  controllers: ['registry', 'cache', 'client', ...LIBS],
  api: ['registry', 'auth', ...LIBS],
  server: ['api', 'auth', 'controllers', 'agent', 'client', 'registry', 'cache', 'actors', 'storage', ...LIBS],
};

const layerRules = Object.entries(allowed).map(([layer, may]) => ({
  name: `${layer}-imports-down-only`,
  comment: `src/${layer} may import only: ${['machinery', ...may].join(', ')}`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: { path: '^src/', pathNot: `^src/(${[layer, 'machinery', ...may].join('|')})/` },
}));

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    ...layerRules,
    {
      name: 'only-cli-is-top',
      comment: 'nothing imports the command line entry point',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/cli\\.ts$' },
    },
    {
      name: 'src-not-tests',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|scripts)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
