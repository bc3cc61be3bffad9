/** The response of a stored file's bytes, shared by the file routes and the guests' share routes. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FileStream, ReadRequest } from '../services/files';

/**
 * What a file read request says of itself: whether the browser's media element sends it
 * (`Sec-Fetch-Dest: video` or `audio`, as Chromium does after navigating to a video preview).
 * @param request the route's request
 */
export function readRequestOf(request: FastifyRequest): ReadRequest {
  const dest = request.headers['sec-fetch-dest'];
  return { mediaElement: dest === 'video' || dest === 'audio' };
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
 * from sniffing, caching in shared caches, or letting another site frame it.
 * @param reply the route's reply
 * @param file what the service opened (services/files.ts openFile, sharingAccess openSharedFile)
 */
export function sendFile(reply: FastifyReply, file: FileStream): FastifyReply {
  return reply
    .header('Content-Type', file.contentType)
    .header('Content-Length', String(file.size))
    .header('Content-Disposition', file.disposition)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', 'private, no-store')
    .header('Content-Security-Policy', FILE_CONTENT_SECURITY_POLICY)
    .send(file.body);
}
