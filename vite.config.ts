// Vite builds the client into dist/client; in development it serves on PORT (3000) and proxies the
// API and the object store to the Fastify server on API_PORT (3001). After a build every text asset
// gets Brotli and gzip copies (scripts/vite/precompress.ts) that the server answers by
// Accept-Encoding; antd's styles are made for the components in use (scripts/vite/antdStyles.ts);
// pdf.js's character maps and standard fonts are copied under pdfjs/ (scripts/vite/pdfjsAssets.ts).
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { antdStyles } from './scripts/vite/antdStyles';
import { pdfjsAssets } from './scripts/vite/pdfjsAssets';
import { precompress } from './scripts/vite/precompress';
import { preloadApp } from './scripts/vite/preloadApp';

const apiPort = Number(process.env.API_PORT ?? 3001);

/** The path aliases of tsconfig.json (`@common/…`, `@src/…`), for the client's bundle. */
const aliases = ['common', 'src'].map((dir) => ({
  find: new RegExp(`^@${dir}/`),
  replacement: `${path.resolve(import.meta.dirname, dir)}/`,
}));

export default defineConfig({
  plugins: [
    react(),
    antdStyles(path.resolve(import.meta.dirname, 'src')),
    preloadApp('src/app/start.tsx'),
    pdfjsAssets(),
    precompress(),
  ],
  resolve: { alias: aliases },
  build: { outDir: 'dist/client', emptyOutDir: true, chunkSizeWarningLimit: 2500 },
  server: {
    port: Number(process.env.PORT ?? 3000),
    proxy: { '/api': `http://127.0.0.1:${apiPort}` },
  },
});
