// liquidjs's ES module build, imported by its path (src/server/features/personalization/merge-tags.ts):
// the package has no "exports" map, so Node resolves 'liquidjs' to its CommonJS build, and an ES module
// importing a CommonJS one makes Node keep a second copy of that module's source for the process's life.
declare module 'liquidjs/dist/liquid.node.mjs' {
  export * from 'liquidjs';
}
