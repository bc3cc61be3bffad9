/**
 * Picked files waiting for the upload saga, outside the store: only the batch id travels in the
 * `uploads/filesPicked` action. Apart from the uploader (uppyClient.ts), so that picking files
 * needs no Uppy code.
 */
import type { PickedFile } from './pickedFiles';

const staged = new Map<string, PickedFile[]>();
let batchCounter = 0;

/**
 * Keeps picked files until the upload saga takes them.
 * @returns the batch id
 */
export function stageFiles(files: readonly PickedFile[]): string {
  batchCounter += 1;
  const batchId = `batch-${batchCounter}`;
  staged.set(batchId, [...files]);
  return batchId;
}

/** Takes (and forgets) a staged batch; an unknown id gives an empty list. */
export function takeStagedFiles(batchId: string): PickedFile[] {
  const files = staged.get(batchId) ?? [];
  staged.delete(batchId);
  return files;
}
