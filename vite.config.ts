import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { prerenderPublicPages } from './scripts/prerender-plugin';

/** The client's entry chunk (named by `entryFileNames` below). */
const ENTRY_CHUNK = /^assets\/entry-[\w-]+\.js$/;

const apiTarget = process.env.VITE_API_PROXY ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;

export default defineConfig({
  root: 'src/web',
  publicDir: fileURLToPath(new URL('./src/web/public', import.meta.url)),
  plugins: [react(), tailwindcss(), prerenderPublicPages()],
  resolve: {
    alias: {
      '@shared': fileURLToPath(new URL('./src/shared', import.meta.url)),
      '@': fileURLToPath(new URL('./src/web', import.meta.url)),
    },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    manifest: true,
    modulePreload: {
      // Every browser the app supports preloads modules natively; the polyfill only added bytes.
      polyfill: false,
      // The entry's own lazy imports (the public pages, the toaster, the signed-in pages' index) go without
      // lists of chunks to preload: those lists weighed ~3 KB gzip on every public page's first load. A
      // prerendered page preloads its own chunks from its HTML instead (scripts/prerender-plugin.ts); the
      // signed-in pages keep their lists, in their own chunk (src/web/app/app-pages.ts).
      resolveDependencies: (_file, deps, { hostId, hostType }) =>
        hostType === 'js' && ENTRY_CHUNK.test(hostId) ? [] : deps,
    },
    rolldownOptions: {
      // The prerendered public pages load only src/web/boot.ts, which imports the app on the visitor's
      // first sign of intent (scripts/prerender-plugin.ts puts it in place of the entry).
      input: {
        index: fileURLToPath(new URL('./src/web/index.html', import.meta.url)),
        boot: fileURLToPath(new URL('./src/web/boot.ts', import.meta.url)),
      },
      output: {
        entryFileNames: (chunk) =>
          chunk.name === 'boot' ? 'assets/boot-[hash].js' : 'assets/entry-[hash].js',
      },
    },
  },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: { '/api': apiTarget, '/t': apiTarget, '/u': apiTarget },
  },
});
