/**
 * The app's uploader once made (uppyClient.ts makes it on first use; tests put in a fake), kept
 * apart from Uppy's code so that the upload saga can reach it without loading that code.
 */
import type { Uploader } from './uploader';

let uploader: Uploader | null = null;

/** The uploader in use, or null before the first use. */
export function currentUploader(): Uploader | null {
  return uploader;
}

/** Replaces the uploader (tests substitute a fake); null makes the next use create a new one. */
export function setUploader(next: Uploader | null): void {
  uploader = next;
}
