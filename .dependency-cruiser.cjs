// Import boundaries from docs/architecture.md: shared imports nothing of ours; web imports web and shared;
// web features do not import each other; server never imports worker or web.
module.exports = {
  forbidden: [
    { name: 'shared-is-a-leaf', severity: 'error', from: { path: '^src/shared' }, to: { path: '^src/(server|worker|web)' } },
    { name: 'web-stays-in-web', severity: 'error', from: { path: '^src/web' }, to: { path: '^src/(server|worker)' } },
    { name: 'server-never-imports-worker', severity: 'error', from: { path: '^src/server' }, to: { path: '^src/(worker|web)' } },
    {
      name: 'web-features-are-independent',
      severity: 'error',
      from: { path: '^src/web/features/([^/]+)/' },
      to: { path: '^src/web/features/', pathNot: '^src/web/features/$1/' },
    },
    { name: 'no-circular-in-shared', severity: 'error', from: { path: '^src/shared' }, to: { circular: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
