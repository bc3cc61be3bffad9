/**
 * Removing derivatives no file needs any more (docs/architecture.md "Document imaging"). They are
 * keyed by the original's sha256 and shared by every file holding those bytes, so they go only
 * when the last such file is permanently deleted: right after a permanent delete for the deleted
 * files' sha256, and by a sweep at start-up for anything a crash or another path left behind.
 */
import type { RenditionRow } from '@server/db/schemaImaging';
import {
  deleteRendition,
  findRendition,
  listOrphanRenditions,
  unreferencedSha256,
} from '@server/repositories/renditions';
import type { Services } from '../context';

/** Removes a rendition's objects, then its row (a failed object delete is left to the sweep). */
async function removeRendition(services: Services, rendition: RenditionRow): Promise<void> {
  const keys = [rendition.pdf_key, rendition.text_key, rendition.thumbnail_key];
  for (const key of keys) if (key) await services.store.delete(key);
  await deleteRendition(services.db, rendition.sha256);
}

/**
 * Removes the derivatives of these sha256 that no file (of any firm, any status) holds any more.
 * @returns how many renditions were removed
 * @throws when the database or the store fails
 */
export async function removeUnusedDerivatives(
  services: Services,
  sha256s: readonly string[],
): Promise<number> {
  let removed = 0;
  for (const sha256 of await unreferencedSha256(services.db, sha256s)) {
    const rendition = await findRendition(services.db, sha256);
    if (!rendition) continue;
    await removeRendition(services, rendition);
    removed += 1;
  }
  return removed;
}

/** Renditions looked at per sweep batch. */
export const ORPHAN_SWEEP_BATCH = 200;

/**
 * Removes every rendition no file holds, in batches.
 * @returns how many were removed
 * @throws when the database or the store fails
 */
export async function sweepOrphanDerivatives(
  services: Services,
  batch = ORPHAN_SWEEP_BATCH,
): Promise<number> {
  let cursor = '';
  let removed = 0;
  for (;;) {
    const rows = await listOrphanRenditions(services.db, cursor, batch);
    for (const row of rows) await removeRendition(services, row);
    removed += rows.length;
    if (rows.length < batch) return removed;
    cursor = rows[rows.length - 1]!.sha256;
  }
}
