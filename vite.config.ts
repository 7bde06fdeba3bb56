import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The console; during `npm run dev` the /cz API is proxied to a reference server on :8080.
export default defineConfig({
  plugins: [react()],
  server: { proxy: { '/cz': 'http://localhost:8080' } },
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 1500 },
});
