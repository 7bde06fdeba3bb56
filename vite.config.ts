import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { fileURLToPath } from 'node:url';

// The console; during `npm run dev` the /cz API is proxied to a reference server on :8080.
// Every text asset is also written brotli- and gzip-compressed beside itself (x.js.br, x.js.gz),
// so the server sends the smallest encoding the browser accepts without compressing per request.
export default defineConfig({
  plugins: [react(), compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 512 })],
  resolve: { alias: { 'object.entries': fileURLToPath(new URL('./src/shims/object-entries.cjs', import.meta.url)) } },
  server: { proxy: { '/cz': 'http://localhost:8080' } },
  // The manifest tells the server which chunk holds each language's catalogue, to preload it.
  // Everything the first screen imports statically goes in one chunk beside the entry: over a
  // satellite link each extra file queues for one of the browser's six connections and pays the
  // round trip again (17 small shared chunks cost the login page about a second).
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    manifest: true,
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'start', tags: ['$initial'] }] } } },
  },
});
