import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { fileURLToPath } from 'node:url';

/** The dashboard page, its map and the map's libraries: one chunk (the fleet map is the first screen after the login). */
const DASHBOARD =
  /[\\/](src[\\/]pages[\\/](Dashboard\.tsx|dashboard[\\/]|monitor[\\/](liveFormat|devicePaths))|src[\\/]map[\\/]|node_modules[\\/](leaflet|supercluster|kdbush|topojson-client)[\\/])/;
/** The login page's lazily loaded modules. */
const LOGIN_AFTER =
  /[\\/](src[\\/](pages[\\/]login[\\/]loginRules|domain[\\/](userSchemas|validate|schemaRules)|layout[\\/]ErrorCatalogueView)\.tsx?$|node_modules[\\/](yup|property-expr|tiny-case|toposort|@mui[\\/]material[\\/](Alert|Stack|DialogContentText))[\\/])/;
/** Shared code of the console: the libraries and our non-page modules. */
const CONSOLE = /[\\/](node_modules|src[\\/](domain|api|data|hooks|state|format|layout|navigation|resources[\\/]generic|theme|shims))[\\/]/;
/** Libraries one page alone needs, and what the language catalogues hold: they stay in their own lazy chunks. */
const OWN_CHUNK =
  /[\\/]node_modules[\\/](@mui[\\/]x-|hls\.js|exceljs|world-atlas|d3-|@types|ra-language-)|[\\/]src[\\/]domain[\\/]messages(Zh|En)\.ts/;

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
    // After the login the console and the dashboard were 27 + 11 files, most of them small shared
    // chunks, each a queued request on a satellite link (npm run bench:satlink). The libraries and
    // shared modules behind the login page go in one chunk, the dashboard and its map in another;
    // the libraries of single other pages (charts, video, spreadsheets, the detailed land) stay
    // lazy chunks of their own.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'start', tags: ['$initial'] },
            // react-admin's English messages are also the English catalogue's: a small chunk of their own.
            { name: 'ra-english', test: /[\\/]node_modules[\\/]ra-language-english[\\/]/ },
            // What the login form loads once it shows (its rules, yup, the error dialogs): one chunk.
            { name: 'login-after', test: LOGIN_AFTER },
            { name: 'console', test: (id) => CONSOLE.test(id) && !OWN_CHUNK.test(id) && !DASHBOARD.test(id) },
            { name: 'dashboard', test: DASHBOARD },
          ],
        },
      },
    },
  },
});
