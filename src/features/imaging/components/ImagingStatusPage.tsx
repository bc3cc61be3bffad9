/**
 * The admin area's "Document imaging" section (/admin/imaging; docs/architecture.md "Document
 * imaging"): the conversion and recognition tools the server found, and for each missing one the
 * command installing it; the OCR languages without data; how many jobs run at once; the firm's
 * jobs waiting, running, done and failed; the jobs that gave up with their reasons, each with a
 * Retry; and a Refresh.
 */
import { CheckCircleFilled, CloseCircleFilled, ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Empty, Spin } from 'antd';
import { useEffect } from 'react';
import type { ImagingFailedJobDto, ImagingStatusDto } from '@common/imaging';
import { formatDate } from '@common/format';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectImagingStatus, selectRetry } from '../imagingSelectors';
import { imagingActions } from '../imagingSlice';
import { FailureReason } from './PreviewTextSection';
import './imaging.css';

/** The section's title. */
const IMAGING_ADMIN_TITLE = 'Document imaging';

/** The job counts as shown, in order. */
const COUNT_LABELS: { key: keyof ImagingStatusDto['jobs']; label: string }[] = [
  { key: 'queued', label: 'Waiting' },
  { key: 'running', label: 'Running' },
  { key: 'done', label: 'Done' },
  { key: 'failed', label: 'Failed' },
];

/** One job that gave up: its file, reason, when, and Retry. */
function FailedJob({ job }: { job: ImagingFailedJobDto }) {
  const dispatch = useAppDispatch();
  const retry = useAppSelector((state) => selectRetry(state, job.job_id));
  return (
    <li data-testid="imaging-failed-job">
      <strong>{job.file_name}</strong>
      <FailureReason reason={job.reason} />
      <span className="admin-muted">
        {formatDate(job.failed_at)}, {job.attempts} {job.attempts === 1 ? 'attempt' : 'attempts'}
      </span>
      <Button
        size="small"
        icon={<ReloadOutlined aria-hidden />}
        aria-label={`Retry ${job.file_name}`}
        loading={retry.status === 'loading'}
        onClick={() =>
          dispatch(imagingActions.retryRequested({ jobId: job.job_id, fileId: job.file_id }))
        }
      >
        Retry
      </Button>
      {retry.status === 'failed' ? <span role="alert">{retry.error}</span> : null}
    </li>
  );
}

/** The status once loaded. */
function StatusView({ data }: { data: ImagingStatusDto }) {
  return (
    <>
      <h3>Tools</h3>
      <ul className="imaging-admin-tools" aria-label="Tools">
        {data.tools.map((tool) => (
          <li key={tool.command} data-testid="imaging-tool" data-found={tool.path !== null}>
            {tool.path ? (
              <CheckCircleFilled aria-hidden style={{ color: '#2f855a' }} />
            ) : (
              <CloseCircleFilled aria-hidden style={{ color: '#c53030' }} />
            )}
            <strong>{tool.label}</strong>
            <span className="admin-muted">{tool.purpose}</span>
            {tool.path ? (
              <span>
                Found: <code>{tool.path}</code>
              </span>
            ) : (
              <span>
                Missing. Install with <code>{tool.install}</code>
              </span>
            )}
          </li>
        ))}
      </ul>
      {data.missing_languages.length > 0 ? (
        <Alert
          className="imaging-admin-languages"
          type="warning"
          showIcon
          title={`OCR languages without data: ${data.missing_languages.join(', ')}`}
          description={
            data.install_languages ? (
              <span>
                Install with <code>{data.install_languages}</code>
              </span>
            ) : null
          }
        />
      ) : null}
      <h3>Jobs</h3>
      <p>
        {data.concurrency} {data.concurrency === 1 ? 'job runs' : 'jobs run'} at once on this
        server.
      </p>
      <ul className="imaging-admin-counts" aria-label="Jobs">
        {COUNT_LABELS.map(({ key, label }) => (
          <li key={key} data-testid={`imaging-count-${key}`}>
            {label}: <strong>{data.jobs[key].toLocaleString('en-US')}</strong>
          </li>
        ))}
      </ul>
      <h3>Failed</h3>
      {data.failed.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No job has failed." />
      ) : (
        <ul className="imaging-admin-failed" aria-label="Failed jobs">
          {data.failed.map((job) => (
            <FailedJob key={job.job_id} job={job} />
          ))}
        </ul>
      )}
    </>
  );
}

/** The admin section; read when it opens and on Refresh. */
export function ImagingStatusPage() {
  const dispatch = useAppDispatch();
  const status = useAppSelector(selectImagingStatus);
  useEffect(() => {
    dispatch(imagingActions.statusRequested());
  }, [dispatch]);

  let body;
  if (status.status === 'failed' && !status.data) {
    body = <Alert type="error" role="alert" showIcon title={status.error} />;
  } else if (!status.data) {
    body = (
      <div role="status">
        <Spin size="small" /> Loading…
      </div>
    );
  } else {
    body = (
      <>
        {status.status === 'failed' ? (
          <Alert type="error" role="alert" showIcon title={status.error} />
        ) : null}
        <StatusView data={status.data} />
      </>
    );
  }
  return (
    <section className="imaging-admin" aria-label={IMAGING_ADMIN_TITLE}>
      <div className="list-layout-bar">
        <Button
          icon={<ReloadOutlined aria-hidden />}
          loading={status.status === 'loading'}
          onClick={() => dispatch(imagingActions.statusRequested())}
        >
          Refresh
        </Button>
      </div>
      {body}
    </section>
  );
}
