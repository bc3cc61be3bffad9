/**
 * The local object store's presigned PUT endpoint. No session is needed: the signature in the URL
 * is the authorisation, bound to key, method, content type, size limit and expiry. The body is
 * streamed to disk, never parsed or buffered.
 */
import type { FastifyInstance } from 'fastify';
import { formatSize } from '../../common/format';
import { formatMessage, MESSAGES } from '../../common/messages';
import { MAX_FILE_SIZE_BYTES } from '../../common/constants';
import { AppError } from '../errors';
import {
  LOCAL_STORAGE_PREFIX,
  PutRefused,
  type LocalObjectStore,
  type PutFailure,
} from '../storage/localObjectStore';

const STATUS: Record<PutFailure, [number, string]> = {
  bad_signature: [403, MESSAGES.invalidSignature],
  expired: [403, MESSAGES.invalidSignature],
  wrong_content_type: [415, 'The Content-Type does not match the upload link.'],
  too_large: [
    413,
    formatMessage(MESSAGES.fileTooLarge, {
      file: 'The file',
      size: formatSize(MAX_FILE_SIZE_BYTES),
    }),
  ],
  aborted: [400, MESSAGES.uploadNotComplete],
};

/**
 * Registers PUT /api/storage/objects/* in its own scope (its own content-type parser).
 * @param onRefused called with the key of a PUT refused for its body (too large, broken off)
 */
export async function storageRoutes(
  app: FastifyInstance,
  store: LocalObjectStore,
  onRefused: (key: string) => Promise<void>,
): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // Leave the body unread: the handler streams request.raw to disk itself.
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    scope.put<{ Params: { '*': string }; Querystring: Record<string, string | undefined> }>(
      `${LOCAL_STORAGE_PREFIX}*`,
      { schema: { hide: true } },
      async (request, reply) => {
        const key = request.params['*'];
        try {
          const signedMax = store.authorizePut(
            key,
            request.query,
            request.headers['content-type'] ?? '',
          );
          const maxBytes = Math.min(signedMax, MAX_FILE_SIZE_BYTES);
          const declared = Number(request.headers['content-length'] ?? NaN);
          if (Number.isFinite(declared) && declared > maxBytes) throw new PutRefused('too_large');
          const info = await store.write(key, request.raw, maxBytes);
          return reply
            .header('ETag', `"${info.sha256 ?? ''}"`)
            .code(200)
            .send({ size: info.size });
        } catch (error) {
          if (!(error instanceof PutRefused)) throw error;
          const [status, message] = STATUS[error.reason];
          if (error.reason === 'too_large' || error.reason === 'aborted') await onRefused(key);
          // Stop the client from sending the rest of a refused body.
          if (status === 413) reply.header('Connection', 'close');
          throw new AppError(status, error.reason, message);
        }
      },
    );
  });
}
