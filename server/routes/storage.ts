/**
 * The local object store's presigned endpoints (S3-compatible, so @uppy/aws-s3 talks to them
 * unchanged): PUT of a whole object or of one part, POST to create or complete a multipart upload,
 * GET to list its parts, DELETE to abort it. No session is needed: the signature in the URL is the
 * authorisation, bound to operation, key, upload id, part number, content type, size limit and
 * expiry. Bodies are streamed to disk, never parsed or buffered (except the small XML part list of
 * a complete).
 */
import { UNCOMPRESSED } from '../plugins/compression';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_FILE_SIZE_BYTES } from '@common/constants';
import { fileTooLargeMessage } from '@common/files';
import { MESSAGES } from '@common/messages';
import { AppError } from '../errors';
import type { UploadKeyState } from '../services/files';
import type { LocalObjectStore } from '../storage/localObjectStore';
import { LOCAL_STORAGE_PREFIX, StoreRefused, type StoreFailure } from '../storage/localObjectStore';
import { INITIATED_PREFIX, verifyInitiated } from '../storage/initiated';
import {
  MAX_COMPLETE_BODY_BYTES,
  completeResultXml,
  initiateResultXml,
  listPartsXml,
  parseCompleteRequest,
} from './storageProtocol';

const STATUS: Record<StoreFailure, [number, string]> = {
  bad_signature: [403, MESSAGES.invalidSignature],
  expired: [403, MESSAGES.invalidSignature],
  wrong_content_type: [415, 'The Content-Type does not match the upload link.'],
  too_large: [413, fileTooLargeMessage('The file', null, MAX_FILE_SIZE_BYTES)],
  aborted: [400, MESSAGES.uploadNotComplete],
  no_such_upload: [404, 'The upload does not exist or was cancelled.'],
  invalid_part: [400, 'A part of the upload is missing. Please try again.'],
  invalid_part_order: [400, 'The parts of the upload are not in order.'],
  size_mismatch: [400, MESSAGES.uploadNotComplete],
  malformed_xml: [400, 'The list of parts could not be read.'],
  busy: [409, 'The upload is being completed.'],
  exists: [409, 'The file is already stored and cannot be replaced.'],
  recorded: [409, 'The file is already recorded and cannot be replaced.'],
};

/** The operations that write to the store: each needs a pending upload of its key. */
const WRITES = new Set(['put', 'create', 'part', 'complete']);

type StoreRequest = FastifyRequest<{
  Params: { '*': string };
  Querystring: Record<string, string | undefined>;
}>;

/** Reads a small request body as text, refusing more than `limit` bytes. */
async function readSmallBody(request: StoreRequest, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new StoreRefused('too_large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The largest body a request may carry: the signed limit, never over 104857600 bytes. */
function bodyLimit(request: StoreRequest, signedMax: number): number {
  const maxBytes = Math.min(signedMax, MAX_FILE_SIZE_BYTES);
  const declared = Number(request.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw new StoreRefused('too_large');
  return maxBytes;
}

/**
 * Registers the store endpoints under /api/storage/objects/* in their own scope (their own
 * content-type parser that leaves the body unread).
 * Stored objects are immutable: a write (single PUT, multipart create, part or complete) is
 * refused unless `uploadState` says the key's upload is still pending — 409 once it is recorded,
 * 404 once it is gone (discarded, cleaned up) — so a presigned URL replayed afterwards changes
 * nothing; the store itself never publishes over an existing object either.
 * @param onRefused called with the key of a single PUT refused for its body (too large, broken
 *   off): that upload never became a file. Parts are not reported: a broken part is resent.
 * @param uploadState where the upload of `key` stands (for multipart steps: the upload whose id
 *   is `uploadId`; for a single PUT `uploadId` is '')
 */
export async function storageRoutes(
  app: FastifyInstance,
  store: LocalObjectStore,
  onRefused: (key: string) => Promise<void>,
  uploadState: (key: string, uploadId: string) => Promise<UploadKeyState>,
): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // Leave the body unread: the handlers stream request.raw themselves.
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

    const handle = async (request: StoreRequest, reply: FastifyReply) => {
      const key = request.params['*'];
      let op = 'put';
      try {
        const signed = store.authorize(
          request.method,
          key,
          request.query,
          request.headers['content-type'] ?? '',
        );
        op = signed.op;
        if (WRITES.has(signed.op)) {
          const state = await uploadState(key, signed.uploadId);
          if (state === 'ready') throw new StoreRefused('recorded');
          if (state === 'missing') throw new StoreRefused('no_such_upload');
        }
        switch (signed.op) {
          case 'put': {
            const info = await store.write(key, request.raw, bodyLimit(request, signed.maxBytes));
            return reply.header('ETag', `"${info.etag}"`).code(200).send({ size: info.size });
          }
          case 'create': {
            if (signed.maxBytes > MAX_FILE_SIZE_BYTES) throw new StoreRefused('too_large');
            await store.createMultipartUpload(
              key,
              signed.uploadId,
              signed.contentType,
              signed.maxBytes,
              signed.partSize,
            );
            return reply
              .type('application/xml')
              .code(200)
              .send(initiateResultXml(key, signed.uploadId));
          }
          case 'part': {
            const part = await store.writePart(
              key,
              signed.uploadId,
              signed.partNumber,
              request.raw,
              bodyLimit(request, signed.maxBytes),
            );
            return reply.header('ETag', `"${part.etag}"`).code(200).send();
          }
          case 'list': {
            const parts = await store.listParts(key, signed.uploadId);
            return reply
              .type('application/xml')
              .code(200)
              .send(listPartsXml(key, signed.uploadId, parts));
          }
          case 'complete': {
            const parts = parseCompleteRequest(
              await readSmallBody(request, MAX_COMPLETE_BODY_BYTES),
            );
            const info = await store.completeMultipartUpload(
              key,
              signed.uploadId,
              parts,
              signed.maxBytes,
            );
            return reply
              .type('application/xml')
              .code(200)
              .send(completeResultXml(`${LOCAL_STORAGE_PREFIX}${key}`, key, info.etag));
          }
          case 'abort':
            await store.abortMultipartUpload(key, signed.uploadId);
            return reply.code(204).send();
        }
      } catch (error) {
        if (!(error instanceof StoreRefused)) throw error;
        const [status, message] = STATUS[error.reason];
        if (op === 'put' && (error.reason === 'too_large' || error.reason === 'aborted')) {
          await onRefused(key);
        }
        // Stop the client from sending the rest of a refused body.
        if (status === 413) reply.header('Connection', 'close');
        throw new AppError(status, error.reason, message);
      }
    };

    const url = `${LOCAL_STORAGE_PREFIX}*`;
    const options = { ...UNCOMPRESSED, schema: { hide: true } };
    scope.put(url, options, handle);
    scope.post(url, options, handle);
    scope.get(url, options, handle);
    scope.delete(url, options, handle);
  });
}

/**
 * Registers POST /api/storage/initiated/* (storage/initiated.ts): the create step of an S3 store's
 * multipart upload, which the server has started already. Authorised by the URL's signature; the
 * answer is the S3 InitiateMultipartUploadResult naming the pending upload's id, while that upload
 * is still pending (404 once it is gone, 409 once recorded).
 * @param secret the app's HMAC key
 * @param now the app's clock (epoch ms)
 * @param uploadState where the upload of `key` with id `uploadId` stands
 */
export async function initiatedRoutes(
  app: FastifyInstance,
  secret: string,
  now: () => number,
  uploadState: (key: string, uploadId: string) => Promise<UploadKeyState>,
): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // The create step has no body worth reading (@uppy/aws-s3 sends none).
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    scope.post(
      `${INITIATED_PREFIX}*`,
      { schema: { hide: true } },
      async (request: StoreRequest, reply: FastifyReply) => {
        const key = request.params['*'];
        try {
          const uploadId = verifyInitiated(secret, key, request.query, now());
          const state = await uploadState(key, uploadId);
          if (state === 'ready') throw new StoreRefused('recorded');
          if (state === 'missing') throw new StoreRefused('no_such_upload');
          return reply.type('application/xml').code(200).send(initiateResultXml(key, uploadId));
        } catch (error) {
          if (!(error instanceof StoreRefused)) throw error;
          const [status, message] = STATUS[error.reason];
          throw new AppError(status, error.reason, message);
        }
      },
    );
  });
}
