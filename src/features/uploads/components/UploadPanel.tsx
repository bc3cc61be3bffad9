/**
 * The upload panel (SPEC section 2: "an upload panel that is open or minimized"): a card fixed at
 * the bottom right listing each file with its progress and status, refused files with their
 * reason, and a total line.
 */
import {
  CheckCircleFilled,
  CloseCircleFilled,
  CloseOutlined,
  DownOutlined,
  StopOutlined,
  UpOutlined,
  WarningFilled,
} from '@ant-design/icons';
import { Button, Progress, Tooltip, Typography } from 'antd';
import { formatSize } from '../../../../common/format';
import { plural } from '../../../../common/text';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import {
  selectInvalidUploads,
  selectIsUploading,
  selectUploadFiles,
  selectUploadPanel,
  selectUploadTotals,
  type UploadTotals,
} from '../uploadsSelectors';
import { uploadsActions, type InvalidUpload, type UploadItem } from '../uploadsSlice';
import { useBeforeUnloadWarning } from './useBeforeUnloadWarning';

/** The total line, e.g. "2 of 3 files uploaded · 1 failed · 1 not added". */
export function totalLine(totals: UploadTotals): string {
  const accepted = totals.total - totals.invalid;
  const parts = [`${totals.complete} of ${accepted} ${plural(accepted, 'file')} uploaded`];
  if (totals.failed > 0) parts.push(`${totals.failed} failed`);
  if (totals.cancelled > 0) parts.push(`${totals.cancelled} cancelled`);
  if (totals.invalid > 0) parts.push(`${totals.invalid} not added`);
  return parts.join(' · ');
}

function percentOf(item: UploadItem): number {
  if (item.status === 'complete') return 100;
  if (item.size === 0) return 0;
  return Math.floor((item.bytesUploaded / item.size) * 100);
}

function statusText(item: UploadItem): string {
  switch (item.status) {
    case 'queued':
      return 'Queued';
    case 'uploading':
      return `Uploading… ${percentOf(item)}%`;
    case 'complete':
      return 'Complete';
    case 'failed':
      return item.error ?? 'Failed';
    case 'cancelled':
      return 'Cancelled';
  }
}

function UploadRow({ item }: { item: UploadItem }) {
  const percent = percentOf(item);
  const icon =
    item.status === 'complete' ? (
      <CheckCircleFilled className="upload-icon-ok" aria-hidden />
    ) : item.status === 'failed' ? (
      <CloseCircleFilled className="upload-icon-error" aria-hidden />
    ) : item.status === 'cancelled' ? (
      <StopOutlined className="upload-icon-muted" aria-hidden />
    ) : null;
  return (
    <li
      className={`upload-row upload-row-${item.status}`}
      data-testid="upload-row"
      data-status={item.status}
    >
      <div className="upload-row-head">
        {icon}
        <span className="upload-name" title={item.name}>
          {item.name}
        </span>
        <span className="upload-size">{formatSize(item.size)}</span>
      </div>
      {item.status === 'queued' || item.status === 'uploading' ? (
        <Progress
          percent={percent}
          size="small"
          showInfo={false}
          aria-label={`${item.name} progress`}
        />
      ) : null}
      <div
        className={item.status === 'failed' ? 'upload-status upload-status-error' : 'upload-status'}
      >
        {statusText(item)}
        {item.status === 'failed' && item.detail ? (
          <Typography.Text type="secondary" className="upload-detail">
            {' '}
            {item.detail}
          </Typography.Text>
        ) : null}
      </div>
    </li>
  );
}

function InvalidRow({ item }: { item: InvalidUpload }) {
  return (
    <li className="upload-row upload-row-invalid" data-testid="upload-row" data-status="invalid">
      <div className="upload-row-head">
        <WarningFilled className="upload-icon-warning" aria-hidden />
        <span className="upload-name" title={item.name}>
          {item.name}
        </span>
        <span className="upload-size">{formatSize(item.size)}</span>
      </div>
      <div className="upload-status upload-status-error">{item.reason}</div>
    </li>
  );
}

/** The panel; hidden until files are added, then open or minimised. */
export function UploadPanel() {
  const dispatch = useAppDispatch();
  const panel = useAppSelector(selectUploadPanel);
  const files = useAppSelector(selectUploadFiles);
  const invalid = useAppSelector(selectInvalidUploads);
  const totals = useAppSelector(selectUploadTotals);
  const uploading = useAppSelector(selectIsUploading);

  useBeforeUnloadWarning(uploading);

  if (panel === 'hidden') return null;
  const minimized = panel === 'minimized';

  return (
    <section
      className={minimized ? 'upload-panel minimized' : 'upload-panel'}
      aria-labelledby="upload-panel-title"
    >
      <header className="upload-panel-header">
        <h2 id="upload-panel-title" className="upload-panel-title">
          {uploading ? 'Uploading files' : 'Uploads'}
        </h2>
        <div className="upload-panel-actions">
          {uploading ? (
            <Tooltip title="Cancel all uploads">
              <Button
                type="text"
                size="small"
                icon={<StopOutlined aria-hidden />}
                aria-label="Cancel all uploads"
                onClick={() => dispatch(uploadsActions.cancelAllRequested())}
              />
            </Tooltip>
          ) : null}
          {minimized ? (
            <Button
              type="text"
              size="small"
              icon={<UpOutlined aria-hidden />}
              aria-label="Show uploads"
              aria-expanded={false}
              onClick={() => dispatch(uploadsActions.panelRestored())}
            />
          ) : (
            <Button
              type="text"
              size="small"
              icon={<DownOutlined aria-hidden />}
              aria-label="Minimize uploads"
              aria-expanded
              onClick={() => dispatch(uploadsActions.panelMinimized())}
            />
          )}
          {uploading ? null : (
            <Button
              type="text"
              size="small"
              icon={<CloseOutlined aria-hidden />}
              aria-label="Close uploads"
              onClick={() => dispatch(uploadsActions.panelClosed())}
            />
          )}
        </div>
      </header>
      {minimized ? null : (
        <ul className="upload-list" aria-label="Files">
          {files.map((item) => (
            <UploadRow key={item.id} item={item} />
          ))}
          {invalid.map((item) => (
            <InvalidRow key={item.id} item={item} />
          ))}
        </ul>
      )}
      <footer className="upload-total">
        <div aria-live="polite">{totalLine(totals)}</div>
        {files.length > 0 ? (
          <Progress
            percent={totals.percent}
            size="small"
            status={
              totals.failed > 0 && !uploading ? 'exception' : uploading ? 'active' : 'success'
            }
            aria-label="Total upload progress"
          />
        ) : null}
      </footer>
    </section>
  );
}
