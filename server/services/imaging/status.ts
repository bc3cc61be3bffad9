/**
 * The administrator's view of document imaging (GET /api/rest/private/imaging/status): which tools
 * the server found (with the Debian command for each missing one), the firm's jobs per state and
 * the reasons of the jobs that gave up.
 */
import type { ImagingStatusDto } from '../../../common/imaging';
import { countJobsByState, listFailedJobs } from '../../repositories/jobs';
import { assertAdmin } from '../access';
import type { RequestContext, Services } from '../context';
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
      file_id: job.file_id,
      attempts: job.attempts,
      reason: job.last_error ?? '',
      failed_at: job.updated_at,
    })),
  };
}
