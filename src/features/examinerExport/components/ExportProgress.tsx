/**
 * The progress of an examiner's export while the browser downloads it: what the zip is writing,
 * a bar of the bytes (or files, or events) written of those counted, and once done the manifest's
 * sha256 to give the examiner by another channel, with how to verify the zip.
 */
import { Alert, Progress, Typography } from 'antd';
import type { ExaminerExportDto } from '@common/examinerExport';
import { formatSize } from '@common/format';
import { plural } from '@common/text';

const count = (n: number, noun: string) => `${n.toLocaleString('en-US')} ${plural(n, noun)}`;

/** What a running export is doing, in words. */
export function progressText(current: ExaminerExportDto): string {
  switch (current.status) {
    case 'ready':
      return 'Starting the download…';
    case 'running':
      if (current.phase === 'history') {
        return `Writing the history: ${current.events_done.toLocaleString('en-US')} of ${count(current.events_total, 'event')}`;
      }
      if (current.phase === 'index' || current.phase === 'manifest') {
        return 'Writing the index and the manifest…';
      }
      return `Writing files: ${current.files_done.toLocaleString('en-US')} of ${count(current.files_total, 'file')} (${formatSize(current.bytes_done)} of ${formatSize(current.bytes_total)})`;
    case 'done':
      return `Export complete: ${count(current.files_done, 'file')} (${formatSize(current.bytes_done)}) and ${count(current.events_done, 'history event')}.`;
    case 'expired':
      return 'The download did not start in time. Export again.';
    default:
      return current.error ?? 'The export failed.';
  }
}

/** How far a running export is, 0–100: bytes while files are written, then events. */
function progressPercent(current: ExaminerExportDto): number {
  if (current.status === 'done') return 100;
  if (current.status !== 'running') return 0;
  if (current.phase === 'history') {
    return current.events_total === 0
      ? 99
      : Math.min(99, Math.floor((current.events_done / current.events_total) * 100));
  }
  if (current.phase !== 'files') return 99;
  if (current.bytes_total > 0) {
    return Math.min(99, Math.floor((current.bytes_done / current.bytes_total) * 100));
  }
  return current.files_total === 0
    ? 0
    : Math.min(99, Math.floor((current.files_done / current.files_total) * 100));
}

/** The progress of the current export. */
export function ExportProgress({
  current,
  progressError,
}: {
  current: ExaminerExportDto;
  progressError: string | null;
}) {
  const failed = current.status === 'failed' || current.status === 'expired';
  return (
    <section className="examiner-progress" aria-label="Export progress">
      <p className="examiner-file-name">{current.file_name}</p>
      <div role="status" aria-live="polite">
        {failed ? (
          <Alert type="error" showIcon title={progressText(current)} />
        ) : (
          <>
            <Progress
              percent={progressPercent(current)}
              status={current.status === 'done' ? 'success' : 'active'}
              aria-label="Export progress"
            />
            <p>{progressText(current)}</p>
          </>
        )}
      </div>
      {progressError && !failed && current.status !== 'done' ? (
        <Alert type="warning" showIcon title={progressError} />
      ) : null}
      {current.status === 'done' && current.manifest_sha256 ? (
        <div className="examiner-done">
          <p>
            sha256 of the manifest (send it to the examiner separately, so they can tell the zip is
            the one exported):
          </p>
          <Typography.Text code copyable className="examiner-hash">
            {current.manifest_sha256}
          </Typography.Text>
          <p>
            To check the zip: <code>npm run history:verify -- --export “{current.file_name}”</code>,
            or compare each file’s <code>sha256sum</code> with manifest.json (see the operations
            guide).
          </p>
        </div>
      ) : null}
    </section>
  );
}
