/**
 * Adding document-imaging jobs and the retry policy (docs/architecture.md "Document imaging").
 * Jobs are rows (server/repositories/jobs.ts), so they survive restarts and are shared by every
 * app instance on one database; the worker (worker.ts) runs them.
 */
import type { FileRow } from '@server/db/schema';
import { newId, isoAt } from '@server/ids';
import { enqueueJobs, listFilesWithoutJob, requeueFileJob } from '@server/repositories/jobs';
import type { Services } from '../context';
import { derivationPlan } from './formats';

/** The wait before retry n (1-based) is RETRY_BASE_MS · 2^(n-1), at most RETRY_MAX_MS. */
export const RETRY_BASE_MS = 30_000;
/** Longest wait between two attempts, in ms. */
export const RETRY_MAX_MS = 3_600_000;

/**
 * How long to wait after the `attempts`-th failed attempt before the next: 30 s, 1 min, 2 min, …
 * up to 1 h.
 * @param attempts attempts made so far (at least 1)
 * @returns milliseconds
 */
export function retryDelayMs(attempts: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1));
}

/** A recorded file to derive from. */
export interface DeriveTarget {
  databaseId: string;
  /** The file's id. */
  id: string;
  extension: string;
  contentType: string;
  /** Known sha256, or null (the job asks the store). */
  sha256: string | null;
}

/** Listeners told when jobs were added (the in-process worker wakes up). */
const listeners = new Set<() => void>();

/** Calls `listener` whenever this process adds jobs. @returns the function that stops it. */
export function onJobsAdded(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Queues derivation jobs for files whose format imaging handles (others get none); a file that
 * has a job keeps it.
 * @returns how many files had a format to derive from
 * @throws when the database fails (a file deleted meanwhile fails its foreign key)
 */
export async function enqueueDerivations(
  services: Pick<Services, 'db' | 'clock'>,
  targets: readonly DeriveTarget[],
): Promise<number> {
  const now = isoAt(services.clock);
  const jobs = targets
    .filter((target) => derivationPlan(target.extension, target.contentType) !== null)
    .map((target) => ({
      id: newId(),
      kind: 'derive' as const,
      databaseId: target.databaseId,
      fileId: target.id,
      sha256: target.sha256,
      now,
    }));
  await enqueueJobs(services.db, jobs);
  if (jobs.length > 0) notifyJobsAdded();
  return jobs.length;
}

/** Tells the listeners of {@link onJobsAdded} that jobs are due (the worker wakes up). */
export function notifyJobsAdded(): void {
  for (const listener of listeners) listener();
}

/**
 * Queues a just-recorded file's derivation. Never throws: after a failure the file has no job, and
 * the backfill at the next start queues it.
 * @param sha256 the file's sha256 when known
 */
export async function enqueueRecordedFile(
  services: Pick<Services, 'db' | 'clock'>,
  file: Pick<FileRow, 'database_id' | 'id' | 'extension' | 'content_type'>,
  sha256: string | null,
): Promise<void> {
  const target = {
    databaseId: file.database_id,
    id: file.id,
    extension: file.extension,
    contentType: file.content_type,
    sha256,
  };
  await enqueueDerivations(services, [target]).catch(() => undefined);
}

/**
 * Derives again from a file's new version (its row already names the new bytes): its job goes
 * back to queued with the new sha256, or a job is added for a file that had none. Bytes derived
 * before (a restore of an older version, the same bytes elsewhere) finish at once. Never throws:
 * a failure leaves the older derivatives shown until the file's job runs again.
 * @param sha256 the new version's sha256 when known
 */
export async function enqueueNewVersion(
  services: Pick<Services, 'db' | 'clock'>,
  file: Pick<FileRow, 'database_id' | 'id' | 'extension' | 'content_type'>,
  sha256: string | null,
): Promise<void> {
  if (derivationPlan(file.extension, file.content_type) === null) return;
  try {
    if (await requeueFileJob(services.db, 'derive', file.id, sha256, isoAt(services.clock))) {
      notifyJobsAdded();
      return;
    }
  } catch {
    return;
  }
  await enqueueRecordedFile(services, file, sha256);
}

/** Files looked at per backfill batch. */
export const BACKFILL_BATCH = 500;

/**
 * Queues every ready file that has no derivation job yet (files recorded before imaging existed,
 * or whose enqueue failed), in batches of {@link BACKFILL_BATCH} by id.
 * @returns how many jobs were added
 * @throws when the database fails
 */
export async function backfillDerivations(
  services: Pick<Services, 'db' | 'clock'>,
  batch = BACKFILL_BATCH,
): Promise<number> {
  let cursor = '';
  let added = 0;
  for (;;) {
    const rows = await listFilesWithoutJob(services.db, 'derive', cursor, batch);
    added += await enqueueDerivations(
      services,
      rows.map((row) => ({
        databaseId: row.database_id,
        id: row.id,
        extension: row.extension,
        contentType: row.content_type,
        sha256: row.sha256,
      })),
    );
    if (rows.length < batch) return added;
    cursor = rows[rows.length - 1]!.id;
  }
}
