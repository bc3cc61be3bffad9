/**
 * Starting and stopping document imaging with the server (docs/architecture.md "Document
 * imaging"): the tool probe (each missing tool logged once with its install command; jobs that
 * gave up because a tool was missing are queued again once it is there), the backfill of files
 * without a job, the removal of derivatives no file holds, the pages of texts derived before
 * content search (read from their stored objects), and the worker.
 */
import type { FastifyBaseLogger } from 'fastify';
import { IMAGING_TOOLS } from '@common/imaging';
import { isoAt } from '@server/ids';
import { requeueFailedJobs } from '@server/repositories/jobs';
import type { Services } from '../context';
import { sweepOrphanDerivatives } from './cleanup';
import { removeLibreOfficeProfiles } from './office';
import { indexStoredTexts } from './contentPages';
import { deriveHandler } from './derive';
import { backfillDerivations } from './queue';
import { logMissingTools, probeTools } from './tools';
import { startImagingWorker, type ImagingWorker, type JobHandler } from './worker';

/** Running imaging, as {@link startImaging} answers it. */
export interface ImagingHandle {
  /**
   * Ends the worker and resolves once it has: running jobs get up to `graceMs` to finish, then
   * their tools are killed and the jobs are taken again after their lease.
   * @param graceMs in ms (default 0: kill at once)
   */
  stop(graceMs?: number): Promise<void>;
  /** Stops claiming and kills the running jobs' tools now, without waiting (a second signal). */
  abort(): void;
}

/**
 * Starts imaging in the background.
 * @param handler the job handler (tests pass their own)
 * @returns the handle that stops it
 */
export function startImaging(
  services: Services,
  log: FastifyBaseLogger,
  handler: JobHandler = deriveHandler(services),
): ImagingHandle {
  let worker: ImagingWorker | null = null;
  let stopped = false;
  const starting = (async () => {
    const report = await probeTools(services.config.ocrLanguages);
    logMissingTools(report, log);
    const now = isoAt(services.clock);
    for (const tool of IMAGING_TOOLS) {
      if (report.tools.some((found) => found.command === tool.command && found.path)) {
        const requeued = await requeueFailedJobs(services.db, `${tool.label} not found`, now);
        if (requeued > 0) log.info({ requeued, tool: tool.label }, 'imaging jobs queued again');
      }
    }
    const added = await backfillDerivations(services);
    if (added > 0) log.info({ added }, 'imaging jobs queued for existing files');
    const removed = await sweepOrphanDerivatives(services);
    if (removed > 0) log.info({ removed }, 'derivatives of deleted files removed');
    await removeLibreOfficeProfiles();
    const indexed = await indexStoredTexts(services);
    if (indexed > 0) log.info({ indexed }, 'texts of earlier renditions made searchable');
    if (!stopped) worker = startImagingWorker(services, log, handler);
  })().catch((error: unknown) => log.error({ err: error }, 'imaging did not start'));
  return {
    stop: async (graceMs = 0) => {
      stopped = true;
      await starting;
      await worker?.stop(graceMs);
      await removeLibreOfficeProfiles();
    },
    abort: () => {
      stopped = true;
      worker?.abort();
    },
  };
}
