/**
 * The messages a failed upload is shown with (SPEC section 8), the same for the app's uploader
 * (uppyClient.ts) and the request link page's (requestUppy.ts).
 */
import { MESSAGES, formatMessage } from '@common/messages';
import { errorMessage } from '@src/api/client';

/**
 * The message of a failed upload: the store's JSON `message` when the reply's `body` carries one
 * (the local object store answers like the API), else the error's own text (errorMessage of
 * src/api/client.ts). Never throws.
 * @param error what Uppy reported: a store error with `status` and `body`, an ApiError, or any
 */
export function uploadErrorMessage(error: unknown): string {
  const body = (error as { body?: unknown } | null)?.body;
  if (typeof body === 'string' && body.trim().startsWith('{')) {
    try {
      const parsed = JSON.parse(body) as { message?: unknown };
      if (typeof parsed.message === 'string' && parsed.message) return parsed.message;
    } catch {
      // Not JSON: fall back to the error's text.
    }
  }
  return errorMessage(error);
}

/**
 * The message of a file the stall watchdog stopped: "Upload stalled for {seconds} seconds,
 * aborting." with the timeout in whole seconds (rounded).
 * @param timeoutMs the stall timeout, in ms
 */
export function stallMessage(timeoutMs: number): string {
  return formatMessage(MESSAGES.uploadStalled, { seconds: Math.round(timeoutMs / 1000) });
}
