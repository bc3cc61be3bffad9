/**
 * The administrator's view of document imaging (GET /api/rest/private/imaging/status): which tools
 * the server found (with the Debian command for each missing one), the firm's jobs per state and
 * the reasons of the jobs that gave up; and an administrator's retry of a job that gave up.
 */
import { IMAGING_MESSAGES, type FileRenditionDto, type ImagingStatusDto } from '@common/imaging';
import { conflict, notFound } from '@server/errors';
import { isoAt } from '@server/ids';
import {
  countJobsByState,
  findJob,
  listFailedJobs,
  requeueFailedJob,
} from '@server/repositories/jobs';
import { assertAdmin } from '../access';
import type { RequestContext, Services } from '../context';
import { notifyJobsAdded } from './queue';
import { fileRendition } from './renditions';
import { probeTools } from './tools';

/** Failed jobs listed on the status page. */
export const STATUS_FAILED_LIMIT = 20;

/**
 * The imaging status of the session's firm.
 * @throws AppError 403 admin_only for a member or read-only member
 */
export async function imagingStatus(
  services: Services,
  ctx: RequestContext,
): Promise<ImagingStatusDto> {
  assertAdmin(ctx);
  const [report, jobs, failed] = await Promise.all([
    probeTools(services.config.ocrLanguages),
    countJobsByState(services.db, ctx.databaseId),
    listFailedJobs(services.db, ctx.databaseId, STATUS_FAILED_LIMIT),
  ]);
  return {
    tools: report.tools,
    missing_languages: report.missingLanguages,
    install_languages: report.installLanguages,
    concurrency: services.config.imagingConcurrency,
    jobs,
    failed: failed.map((job) => ({
      job_id: job.id,
      file_id: job.file_id,
      file_name: job.file_name,
      attempts: job.attempts,
      reason: job.last_error ?? '',
      failed_at: job.updated_at,
    })),
  };
}

/** What a retry did: the job and the reason of the failure it retries (for the server log). */
export interface RetriedJob {
  /** The retried file's derivation, now queued. */
  rendition: FileRenditionDto;
  fileId: string;
  previousError: string | null;
}

/**
 * POST /api/rest/private/imaging/jobs/{id}/retry: puts a job of the session's firm that gave up
 * back in the queue, due at once with its attempts reset, and wakes this instance's worker.
 * @throws AppError 403 admin_only for a member or read-only member; 404 `job_not_found` for a job
 *   of another firm or none; 409 `job_not_failed` for a job that is queued, running or done
 */
export async function retryImagingJob(
  services: Services,
  ctx: RequestContext,
  jobId: string,
): Promise<RetriedJob> {
  assertAdmin(ctx);
  const job = await findJob(services.db, ctx.databaseId, jobId);
  if (!job) throw notFound(IMAGING_MESSAGES.jobNotFound, 'job_not_found');
  if (!(await requeueFailedJob(services.db, job.id, isoAt(services.clock)))) {
    throw conflict(IMAGING_MESSAGES.jobNotFailed, 'job_not_failed');
  }
  notifyJobsAdded();
  return {
    rendition: await fileRendition(services, ctx, job.file_id),
    fileId: job.file_id,
    previousError: job.last_error,
  };
}
