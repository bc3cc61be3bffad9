/**
 * The failed uploads, collected with their error, the response and the file (SPEC sections 3 and
 * 8: "A failed upload records the error, the response and the file"; "Failed uploads are
 * collected with error, response and file"). They live here, in module scope by upload id, and
 * never in the store: an Error, a response object and a File are not serializable (DESIGN.md
 * section 5). The store holds the failure's message text; a retry or a cancel forgets the entry.
 */

/** One failed upload. */
export interface FailedUpload {
  /** What went wrong (an Error from the network, the store, the server or the stall watchdog). */
  error: unknown;
  /** The response that came with the error (e.g. the store's reply), or null. */
  response: unknown;
  /** The file that failed, or null when the uploader no longer holds it. */
  file: File | null;
}

const failed = new Map<string, FailedUpload>();

/**
 * Collects a failed upload under its id (replacing an earlier failure of the same file).
 * @param id the uploader's file id (the id of the store's upload item)
 */
export function collectFailedUpload(id: string, failure: FailedUpload): void {
  failed.set(id, failure);
}

/** The collected failure of an upload, or undefined. */
export function failedUpload(id: string): FailedUpload | undefined {
  return failed.get(id);
}

/** Every collected failure, by id, in the order they happened. */
export function failedUploads(): ReadonlyMap<string, FailedUpload> {
  return failed;
}

/** Forgets one failure (the file is retried or cancelled). */
export function forgetFailedUpload(id: string): void {
  failed.delete(id);
}

/** Forgets every failure (the upload state was reset). */
export function clearFailedUploads(): void {
  failed.clear();
}
