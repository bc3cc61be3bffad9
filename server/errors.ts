/**
 * The one error type services throw. Routes never build error bodies themselves: the error handler
 * turns an AppError into `{ message, code }` with its HTTP status (DESIGN.md section 3).
 */
import { MESSAGES } from '@common/messages';

/**
 * An error with an HTTP status, a snake_case code, a user-facing message, and the response
 * headers the status needs (for example `Content-Range` of a 416), which the error handler sends.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** 400: the request is malformed or breaks a rule. */
export const badRequest = (message: string, code = 'bad_request') =>
  new AppError(400, code, message);
/** 401: no valid session. */
export const unauthorized = (message: string = MESSAGES.notSignedIn, code = 'unauthorized') =>
  new AppError(401, code, message);
/** 403: signed in but not allowed (used only where hiding existence is not needed). */
export const forbidden = (message: string, code = 'forbidden') => new AppError(403, code, message);
/** 404: not found, or not visible to this session (never reveals other firms' items). */
export const notFound = (message: string = MESSAGES.notFound, code = 'not_found') =>
  new AppError(404, code, message);
/** 409: the state does not allow this now. */
export const conflict = (message: string, code = 'conflict') => new AppError(409, code, message);
/**
 * 416: the Range of a file read starts past the end of its `size` bytes; the answer says the
 * length (`Content-Range: bytes *\/size`, RFC 9110 section 15.5.17).
 */
export const rangeNotSatisfiable = (size: number) =>
  new AppError(416, 'range_not_satisfiable', MESSAGES.rangeNotSatisfiable, {
    'Content-Range': `bytes */${size}`,
  });
/** 413: the body is larger than allowed. */
export const tooLarge = (message: string, code = 'payload_too_large') =>
  new AppError(413, code, message);
