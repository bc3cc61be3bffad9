/**
 * Vite plugin: after the client is written, every text asset of the output directory (scripts,
 * stylesheets, HTML, SVG, JSON, source maps) of at least {@link PRECOMPRESS_MIN_BYTES} gets a
 * Brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside it, kept only when smaller.
 * The server (server/plugins/client.ts, @fastify/static `preCompressed`) answers the copy the
 * request's `Accept-Encoding` allows, with `Content-Encoding`, so no byte is compressed per request.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

/** Files smaller than this many bytes are served as they are (the API's threshold too). */
export const PRECOMPRESS_MIN_BYTES = 1024;

/** Extensions of the files worth compressing (images, fonts and archives already are). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|map|txt|xml|wasm|bcmap|ttf)$/;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Every file under `dir`, as absolute paths. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * Writes `file.br` and `file.gz` beside a compressible file of at least
 * {@link PRECOMPRESS_MIN_BYTES}; each only when it is smaller than the file.
 * @returns the number of compressed copies written
 */
export async function precompressFile(file: string): Promise<number> {
  if (!COMPRESSIBLE.test(file)) return 0;
  const bytes = await readFile(file);
  if (bytes.length < PRECOMPRESS_MIN_BYTES) return 0;
  const [br, gz] = await Promise.all([
    brotli(bytes, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gzip(bytes, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  let written = 0;
  for (const [copy, suffix] of [
    [br, '.br'],
    [gz, '.gz'],
  ] as const) {
    if (copy.length >= bytes.length) continue;
    await writeFile(file + suffix, copy);
    written += 1;
  }
  return written;
}

/** The plugin: compresses the build's output directory once it is written (build only). */
export function precompress(): Plugin {
  let outDir = '';
  let logger: ResolvedConfig['logger'] | null = null;
  return {
    name: 'dossier-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      logger = config.logger;
    },
    async closeBundle() {
      const files = await filesUnder(outDir);
      const counts = await Promise.all(files.map((file) => precompressFile(file)));
      const total = counts.reduce((sum, n) => sum + n, 0);
      logger?.info(`precompressed: ${total} copies (.br, .gz) in ${outDir}`);
    },
  };
}
