/** The response of a stored file's bytes, shared by the file routes and the guests' share routes. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { THUMBNAIL_MAX_AGE_SECONDS } from '@common/imaging';
import { rangeNotSatisfiable } from '../errors';
import { parseByteRange } from '../services/byteRanges';
import type { FileStream, ReadRequest } from '../services/files';
import type { StoredThumbnail } from '../services/imaging/thumbnails';
import type { ObjectStore } from '../storage/objectStore';

/**
 * What a file read request says of itself: whether the browser's media element sends it
 * (`Sec-Fetch-Dest: video` or `audio`, as Chromium does after navigating to a video preview).
 * @param request the route's request
 */
export function readRequestOf(request: FastifyRequest): ReadRequest {
  const { headers } = request;
  const dest = headers['sec-fetch-dest'];
  return {
    mediaElement: dest === 'video' || dest === 'audio',
    range: headers['if-range'] ? undefined : headers.range,
  };
}

/**
 * The Content-Security-Policy of a file response. A file shown inline is its own document: the
 * browser's image, media or text view may load the file itself (`img-src`, `media-src`) and
 * nothing else; no script runs and only the app may frame it.
 */
export const FILE_CONTENT_SECURITY_POLICY =
  "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; " +
  "frame-ancestors 'self'";

/**
 * Sends a file stream with its type, length and disposition, and headers that stop the browser
 * from sniffing, caching in shared caches, or letting another site frame it. Answers the
 * request's `Range` ({@link parseByteRange}): 206 with `Content-Range` for one range (a media
 * element seeking, a PDF reader), 416 with `Content-Range: bytes *\/size` past the end, else 200
 * with everything; every answer says `Accept-Ranges: bytes`. An `If-Range` is not checked
 * (file answers carry no validator: they are never cached), so it always gets the whole body.
 * @param reply the route's reply
 * @param file what the service opened (services/files.ts openFile, sharingAccess openSharedFile)
 * @throws AppError 416 `range_not_satisfiable` (with `Content-Range: bytes *\/size`)
 */
export function sendFile(reply: FastifyReply, file: FileStream): FastifyReply {
  const headers = reply.request.headers;
  const asked = headers['if-range'] ? undefined : headers.range;
  const wanted = parseByteRange(asked, file.size);
  reply.header('Accept-Ranges', 'bytes');
  if (wanted.kind === 'unsatisfiable') throw rangeNotSatisfiable(file.size);
  reply
    .header('Content-Type', file.contentType)
    .header('Content-Disposition', file.disposition)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', 'private, no-store')
    .header('Content-Security-Policy', FILE_CONTENT_SECURITY_POLICY);
  if (wanted.kind === 'partial') {
    const { start, end } = wanted.range;
    return reply
      .code(206)
      .header('Content-Range', `bytes ${start}-${end}/${file.size}`)
      .header('Content-Length', String(end - start + 1))
      .send(file.open(wanted.range));
  }
  return reply.header('Content-Length', String(file.size)).send(file.open());
}

/**
 * Whether an `If-None-Match` header names this entity tag (or is `*`); weak tags compare by their
 * value (RFC 9110 section 13.1.2: the weak comparison).
 */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

/**
 * Sends a thumbnail PNG (services/imaging/thumbnails.ts), kept by the browser's private cache for
 * THUMBNAIL_MAX_AGE_SECONDS and revalidated by its entity tag: 304 without a body when the request's
 * `If-None-Match` names it.
 */
export function sendThumbnail(
  request: FastifyRequest,
  reply: FastifyReply,
  store: ObjectStore,
  thumbnail: StoredThumbnail,
): FastifyReply {
  reply
    .header('ETag', thumbnail.etag)
    .header('Cache-Control', `private, max-age=${THUMBNAIL_MAX_AGE_SECONDS}`)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', FILE_CONTENT_SECURITY_POLICY);
  if (etagMatches(request.headers['if-none-match'], thumbnail.etag)) {
    return reply.code(304).send();
  }
  return reply
    .header('Content-Type', 'image/png')
    .header('Content-Length', String(thumbnail.size))
    .send(store.read(thumbnail.key));
}
