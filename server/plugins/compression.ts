/**
 * Compression of the API's answers (@fastify/compress): a JSON, text or CSV answer of at least
 * {@link COMPRESSION_THRESHOLD_BYTES} is sent Brotli- or gzip-encoded when the request's
 * `Accept-Encoding` allows it (with `Vary: Accept-Encoding`), else as it is. Answers that are a
 * file's own bytes (downloads, previews, thumbnails, the local object store) and zips opt out
 * with {@link UNCOMPRESSED}: they are already compressed or must keep their byte offsets (Range,
 * 206) and their `Content-Length`. The built client's assets are compressed once, at build time
 * (see plugins/client.ts). Request bodies are never decompressed.
 */
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this many bytes are not worth compressing. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/** Route option of a route whose answer is file bytes or a zip: never compressed. */
export const UNCOMPRESSED = { compress: false } as const;

/**
 * Registers compression for every route registered after it (call it before the routes).
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    globalDecompression: false,
    threshold: COMPRESSION_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
  });
}
