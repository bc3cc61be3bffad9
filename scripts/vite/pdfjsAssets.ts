/**
 * Vite plugin: pdf.js's character maps (`cmaps/`, for PDFs whose text is encoded with one of the
 * predefined CMaps, as Chinese, Japanese and Korean documents often are) and its standard font data
 * (`standard_fonts/`, for PDFs that name one of the 14 standard fonts without embedding it) are
 * written under `pdfjs/` of the build and served from node_modules by the dev server, so the
 * viewer's pdf.js (src/features/viewer/pdfjs.ts) finds them at {@link PDFJS_ASSETS_PATH}. Without
 * them such text is missing or drawn in a stand-in font. The server serves them as static files.
 */
import { createReadStream, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

/** Where the files are served, below the app's root. */
export const PDFJS_ASSETS_PATH = '/pdfjs/';

/** The folders of pdfjs-dist that are copied. */
export const PDFJS_ASSET_DIRS = ['cmaps', 'standard_fonts'] as const;

/** The folder of the pdfjs-dist package that the project at `root` resolves. */
export function pdfjsDistDir(root: string): string {
  const require = createRequire(path.join(root, 'package.json'));
  return path.dirname(require.resolve('pdfjs-dist/package.json'));
}

/**
 * The files to copy: each one's path in the build (`pdfjs/cmaps/UniJIS-UCS2-H.bcmap`) and on disk.
 * @param distDir the pdfjs-dist folder
 */
export function pdfjsAssetFiles(distDir: string): { fileName: string; file: string }[] {
  return PDFJS_ASSET_DIRS.flatMap((dir) =>
    readdirSync(path.join(distDir, dir), { withFileTypes: true })
      .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
      .map((entry) => ({
        fileName: `${PDFJS_ASSETS_PATH.slice(1)}${dir}/${entry.name}`,
        file: path.join(distDir, dir, entry.name),
      })),
  );
}

/** The plugin. */
export function pdfjsAssets(): Plugin {
  let distDir = '';
  return {
    name: 'dossier-pdfjs-assets',
    configResolved(config) {
      distDir = pdfjsDistDir(config.root);
    },
    generateBundle() {
      for (const { fileName, file } of pdfjsAssetFiles(distDir)) {
        this.emitFile({ type: 'asset', fileName, source: readFileSync(file) });
      }
    },
    configureServer(server) {
      server.middlewares.use(PDFJS_ASSETS_PATH, (request, response, next) => {
        const relative = decodeURIComponent((request.url ?? '').split('?')[0] ?? '').replace(
          /^\/+/,
          '',
        );
        const [dir, name, ...rest] = relative.split('/');
        const known = (PDFJS_ASSET_DIRS as readonly string[]).includes(dir ?? '');
        if (!known || !name || rest.length > 0 || name.startsWith('.')) return next();
        const file = path.join(distDir, dir!, name);
        try {
          if (!statSync(file).isFile()) return next();
        } catch {
          return next();
        }
        response.setHeader('Content-Type', 'application/octet-stream');
        createReadStream(file).pipe(response);
      });
    },
  };
}
