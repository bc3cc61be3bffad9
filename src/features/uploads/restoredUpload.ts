/**
 * What a file Uppy's Golden Retriever restored after a reload becomes (SPEC section 8: uploads
 * survive a reload and resume): uploaded (record it), failed (interrupted, or its earlier
 * failure), or uploading (resumed from the parts already stored).
 */
import { MESSAGES } from '@common/messages';
import type { RestoredUpload } from './uploader';

/** The facts of a restored file the decision reads. */
export interface RestoredFileFacts {
  /** Uppy's upload of the file finished before the reload. */
  uploadComplete: boolean;
  /** The file's bytes were not kept (a ghost) or are missing. */
  bytesLost: boolean;
  /** The server's pending-upload id, when one was created. */
  uploadId: string | null;
  /** The failure shown before the reload, if any. */
  failure: string | null;
}

/**
 * @returns the restored state and message, and whether the file resumes uploading
 */
export function restoredStateOf(
  facts: RestoredFileFacts,
): Pick<RestoredUpload, 'state' | 'message'> & { resume: boolean } {
  if (facts.uploadComplete && facts.uploadId) {
    return { state: 'uploaded', message: null, resume: false };
  }
  if (facts.bytesLost && facts.uploadId) {
    // Its bytes were not kept, but it had a pending upload: Golden Retriever drops the bytes of a
    // file as it completes and saves the file's state up to 500 ms later, so a reload in between
    // finds a finished upload looking interrupted. Its record is asked again: the server answers
    // the file when it was stored (or already recorded), and refuses it when not, which shows it
    // as interrupted.
    return { state: 'uploaded', message: MESSAGES.uploadInterrupted, resume: false };
  }
  if (facts.bytesLost)
    return { state: 'failed', message: MESSAGES.uploadInterrupted, resume: false };
  if (facts.failure) return { state: 'failed', message: facts.failure, resume: false };
  return { state: 'uploading', message: null, resume: true };
}
