/**
 * Sending a file of an uploader's Uppy instance again (a retry, or the connection back), the same
 * rule for the app's uploader (uppyClient.ts) and the request link page's (requestUppy.ts).
 */
import type { FileProgressNotStarted } from '@uppy/core/utils';

/** The part of Uppy {@link resendFile} uses. */
export interface ResendingUppy {
  pauseResume(id: string): unknown;
  setFileState(
    id: string,
    state: { progress: FileProgressNotStarted; s3Multipart: undefined },
  ): void;
  retryUpload(id: string): Promise<unknown>;
}

/** The facts of the file {@link resendFile} reads. */
export interface ResentFile {
  id: string;
  /** Size in bytes, null when unknown. */
  size: number | null;
  isPaused?: boolean;
  progress: { uploadComplete?: boolean };
}

/** Uppy's progress of a file not started, of `bytesTotal` bytes (null when unknown). */
export function notStartedProgress(bytesTotal: number | null): FileProgressNotStarted {
  return {
    bytesTotal,
    uploadComplete: false,
    uploadStarted: null,
    bytesUploaded: false,
    percentage: 0,
  };
}

/**
 * Sends a file again:
 * - a file the stall watchdog paused is resumed (pauseResume: a multipart upload lists its stored
 *   parts and goes on), and its stall timer armed;
 * - otherwise a file whose bytes are stored but whose record was refused is reset to not started
 *   (its multipart state dropped) so that its bytes are sent again; then Uppy retries the file and
 *   its stall timer is armed. A failed retry is logged, not thrown.
 * @param wasStalled whether the stall watchdog stopped the file (the caller forgets that itself)
 * @param arm (re)starts the file's stall timer
 */
export function resendFile(
  uppy: ResendingUppy,
  file: ResentFile,
  wasStalled: boolean,
  arm: (id: string) => void,
): void {
  const { id } = file;
  if (wasStalled && file.isPaused) {
    uppy.pauseResume(id);
    arm(id);
    return;
  }
  if (file.progress.uploadComplete) {
    uppy.setFileState(id, { progress: notStartedProgress(file.size), s3Multipart: undefined });
  }
  arm(id);
  uppy.retryUpload(id).catch((error: unknown) => {
    console.error('The upload could not be retried:', error);
  });
}
