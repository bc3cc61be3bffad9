/**
 * File fingerprints: the sha256 of every stored file (FileDto.sha256). Objects up to the
 * store's inline checksum limit (the multipart threshold, 10 MiB) are hashed while they arrive,
 * which is also where the browser sends its own sha256 to compare. Larger objects are hashed here,
 * after the upload is recorded and the file is visible: one file at a time in the background, so
 * that an upload never waits for it (the sha256 of 100 MB is about 64 ms of CPU, a third of the
 * upload on a 2-CPU machine). Until then the file's sha256 is null. A sweep, run by the storage
 * maintenance job, fills in what a restart interrupted, copies of files not yet fingerprinted and
 * files recorded before checksums existed.
 */
import { listFilesMissingSha256, setMissingSha256 } from '../repositories/files';
import type { Services } from './context';

/** A stored file to fingerprint. */
export interface FingerprintTarget {
  databaseId: string;
  /** The file's id. */
  id: string;
  storageKey: string;
}

/** Files fingerprinted per sweep run, at most. */
export const FINGERPRINT_SWEEP_LIMIT = 200;

interface FingerprintQueue {
  /**
   * The files waiting, by object key (each version of a file is an object of its own), with the
   * services that queued them.
   */
  pending: Map<string, { services: Services; target: FingerprintTarget }>;
  /** The running drain, while there is one. */
  draining: Promise<void> | null;
}

/**
 * One queue per object store (the app copies its services object, the store stays the same), so
 * that one store's objects are read one at a time.
 */
const queues = new WeakMap<Services['store'], FingerprintQueue>();

/**
 * Computes a stored file's sha256 (reading its object once unless the store already knows it)
 * and sets it on the file row (while the object is still its newest version) and on the version
 * that owns the object, unless they have one.
 * @returns the sha256, or null when the object is missing
 * @throws when the store or the database fails
 */
export async function fingerprintFile(
  services: Services,
  target: FingerprintTarget,
): Promise<string | null> {
  const sha256 = await services.store.checksum(target.storageKey);
  if (sha256) {
    await setMissingSha256(services.db, target.databaseId, target.id, target.storageKey, sha256);
  }
  return sha256;
}

/**
 * Queues a file to be fingerprinted in the background, after the ones already queued (one at a
 * time). A failure is not reported here: the file keeps a null sha256 and the next sweep retries.
 */
export function fingerprintLater(services: Services, target: FingerprintTarget): void {
  let queue = queues.get(services.store);
  if (!queue) {
    queue = { pending: new Map(), draining: null };
    queues.set(services.store, queue);
  }
  queue.pending.set(target.storageKey, { services, target });
  queue.draining ??= drain(queue);
}

async function drain(queue: FingerprintQueue): Promise<void> {
  // Start on a later tick: the caller's answer goes out first, and `draining` is set before the
  // loop can end.
  await Promise.resolve();
  try {
    for (;;) {
      const next = queue.pending.values().next();
      if (next.done) return;
      queue.pending.delete(next.value.target.storageKey);
      await fingerprintFile(next.value.services, next.value.target).catch(() => undefined);
    }
  } finally {
    queue.draining = null;
  }
}

/** Resolves once the store's background queue is empty (tests wait on it before they look). */
export async function fingerprintsSettled(services: Services): Promise<void> {
  for (;;) {
    const draining = queues.get(services.store)?.draining;
    if (!draining) return;
    await draining;
  }
}

/** What one sweep run did. */
export interface FingerprintSweepResult {
  /** Files that got their sha256. */
  fingerprinted: number;
  /** Files whose object is missing or could not be read (left without one). */
  failed: number;
  /** Where the next run starts: the last id looked at, or '' when the sweep reached the end. */
  cursor: string;
}

/**
 * Fingerprints up to `limit` ready files still without a sha256, in id order after `cursor`, one
 * at a time. The cursor lets a file whose object cannot be read not stop the sweep at it.
 * @param cursor '' to start from the first file
 * @throws when the database fails
 */
export async function fingerprintMissingFiles(
  services: Services,
  cursor = '',
  limit = FINGERPRINT_SWEEP_LIMIT,
): Promise<FingerprintSweepResult> {
  const rows = await listFilesMissingSha256(services.db, cursor, limit);
  const result: FingerprintSweepResult = { fingerprinted: 0, failed: 0, cursor: '' };
  for (const row of rows) {
    const sha256 = await fingerprintFile(services, {
      databaseId: row.database_id,
      id: row.id,
      storageKey: row.storage_key,
    }).catch(() => null);
    if (sha256) result.fingerprinted += 1;
    else result.failed += 1;
  }
  if (rows.length === limit) result.cursor = rows[rows.length - 1]!.id;
  return result;
}
