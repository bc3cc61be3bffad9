/**
 * The upload panel (SPEC section 2: "an upload panel that is open or minimized"). Open, it is a
 * card fixed at the bottom right (a full-width bottom sheet on narrow screens): the refused files
 * first, each with the spec's message, under a summary in the header ("2 files not added"); then
 * each accepted file with its progress, speed and time left, a retry and a cancel action; the
 * connection state ("No Internet connection."); and a total line with Retry all and Cancel all.
 * Minimised, it is a one-line pill. Either way the page keeps the room the panel takes free
 * (useReservedSpace), so it never covers a list's rows.
 */
import {
  CheckCircleFilled,
  CloseCircleFilled,
  CloseOutlined,
  DisconnectOutlined,
  DownOutlined,
  RedoOutlined,
  StopOutlined,
  UpOutlined,
  WarningFilled,
} from '@ant-design/icons';
import { Alert, Button, Progress, Tooltip, Typography } from 'antd';
import { useRef } from 'react';
import { formatSize } from '@common/format';
import { MESSAGES } from '@common/messages';
import { plural } from '@common/text';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { formatSpeed, formatTimeLeft } from '../uploadFormat';
import {
  secondsLeftOf,
  selectFailedUploadIds,
  selectInvalidUploads,
  selectIsUploading,
  selectUploadFiles,
  selectUploadNetwork,
  selectUploadPanel,
  selectUploadsCancelled,
  selectUploadTotals,
  type UploadTotals,
} from '../uploadsSelectors';
import {
  isActiveUpload,
  uploadsActions,
  type InvalidUpload,
  type UploadItem,
} from '../uploadsSlice';
import { useBeforeUnloadWarning } from './useBeforeUnloadWarning';
import { useReservedSpace } from './useReservedSpace';

/** The total line, e.g. "2 of 3 files uploaded · 1 failed · 1 not added". */
function totalLine(totals: UploadTotals): string {
  const accepted = totals.total - totals.invalid;
  const parts = [`${totals.complete} of ${accepted} ${plural(accepted, 'file')} uploaded`];
  if (totals.failed > 0) parts.push(`${totals.failed} failed`);
  if (totals.cancelled > 0) parts.push(`${totals.cancelled} cancelled`);
  if (totals.invalid > 0) parts.push(`${totals.invalid} not added`);
  return parts.join(' · ');
}

/** The header's summary of the refused files, e.g. "2 files not added"; null when none. */
function refusedLine(invalid: number): string | null {
  return invalid > 0 ? `${invalid} ${plural(invalid, 'file')} not added` : null;
}

/** "1.5 MB/s · 12 s left" while the speed is known, else null. */
function speedLine(speed: number | null, secondsLeft: number | null): string | null {
  if (speed === null || speed <= 0) return null;
  return secondsLeft === null
    ? formatSpeed(speed)
    : `${formatSpeed(speed)} · ${formatTimeLeft(secondsLeft)}`;
}

function percentOf(item: UploadItem): number {
  if (item.status === 'complete') return 100;
  if (item.size === 0) return 0;
  return Math.floor((item.bytesUploaded / item.size) * 100);
}

function statusText(item: UploadItem): string {
  switch (item.status) {
    case 'queued':
      return item.bytesUploaded > 0 ? `Resuming… ${percentOf(item)}%` : 'Queued';
    case 'uploading':
      return `Uploading… ${percentOf(item)}%`;
    case 'waiting':
      return `Waiting for the connection… ${percentOf(item)}%`;
    case 'complete':
      // Uploaded as a new version of the folder's file of that name.
      if (item.versionOf) return `Complete · new version of ${item.savedName ?? item.name}`;
      // A file of the same name was there: the server saved this one under a unique name.
      return item.savedName ? `Complete · saved as ${item.savedName}` : 'Complete';
    case 'failed':
      return item.error ?? 'Failed';
    case 'cancelled':
      return 'Cancelled';
  }
}

function UploadRow({ item }: { item: UploadItem }) {
  const dispatch = useAppDispatch();
  const percent = percentOf(item);
  const active = isActiveUpload(item);
  const speed = speedLine(item.speed, secondsLeftOf(item));
  const icon =
    item.status === 'complete' ? (
      <CheckCircleFilled className="upload-icon-ok" aria-hidden />
    ) : item.status === 'failed' ? (
      <CloseCircleFilled className="upload-icon-error" aria-hidden />
    ) : item.status === 'cancelled' ? (
      <StopOutlined className="upload-icon-muted" aria-hidden />
    ) : item.status === 'waiting' ? (
      <DisconnectOutlined className="upload-icon-warning" aria-hidden />
    ) : null;
  return (
    <li
      className={`upload-row upload-row-${item.status}`}
      data-testid="upload-row"
      data-status={item.status}
      data-name={item.name}
    >
      <div className="upload-row-head">
        {icon}
        <span className="upload-name" title={item.name}>
          {item.name}
        </span>
        <span className="upload-size">{formatSize(item.size)}</span>
        {item.status === 'failed' ? (
          <Tooltip title="Retry">
            <Button
              type="text"
              size="small"
              icon={<RedoOutlined aria-hidden />}
              aria-label={`Retry ${item.name}`}
              onClick={() => dispatch(uploadsActions.retryRequested({ id: item.id }))}
            />
          </Tooltip>
        ) : null}
        {active || item.status === 'failed' ? (
          <Tooltip title="Cancel">
            <Button
              type="text"
              size="small"
              icon={<CloseOutlined aria-hidden />}
              aria-label={`Cancel ${item.name}`}
              onClick={() => dispatch(uploadsActions.cancelRequested({ id: item.id }))}
            />
          </Tooltip>
        ) : null}
      </div>
      {active ? (
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
        {speed && item.status === 'uploading' ? (
          <span className="upload-speed" data-testid="upload-speed">
            {' · '}
            {speed}
          </span>
        ) : null}
      </div>
    </li>
  );
}

function InvalidRow({ item }: { item: InvalidUpload }) {
  return (
    <li
      className="upload-row upload-row-invalid"
      data-testid="upload-row"
      data-status="invalid"
      data-name={item.name}
    >
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

/** The refused files, shown first: why each one was not added, and Dismiss. */
function Refusals({ invalid }: { invalid: InvalidUpload[] }) {
  const dispatch = useAppDispatch();
  return (
    <section
      className="upload-refusals"
      aria-labelledby="upload-refusals-title"
      data-testid="upload-refusals"
    >
      <div className="upload-refusals-head">
        <h3 id="upload-refusals-title" className="upload-refusals-title">
          {invalid.length === 1 ? 'This file was not added' : 'These files were not added'}
        </h3>
        <Button
          type="link"
          size="small"
          aria-label="Dismiss the files not added"
          onClick={() => dispatch(uploadsActions.refusalsDismissed())}
        >
          Dismiss
        </Button>
      </div>
      <ul className="upload-refusal-list" aria-label="Files not added">
        {invalid.map((item) => (
          <InvalidRow key={item.id} item={item} />
        ))}
      </ul>
    </section>
  );
}

/** The panel; hidden until files are added, then open or minimised to a pill. */
export function UploadPanel() {
  const dispatch = useAppDispatch();
  const panel = useAppSelector(selectUploadPanel);
  const files = useAppSelector(selectUploadFiles);
  const invalid = useAppSelector(selectInvalidUploads);
  const totals = useAppSelector(selectUploadTotals);
  const uploading = useAppSelector(selectIsUploading);
  const failedIds = useAppSelector(selectFailedUploadIds);
  const network = useAppSelector(selectUploadNetwork);
  const cancelled = useAppSelector(selectUploadsCancelled);
  const ref = useRef<HTMLElement>(null);

  useBeforeUnloadWarning(uploading);
  useReservedSpace(ref, panel);

  if (panel === 'hidden') return null;
  const speed = speedLine(totals.speed, totals.secondsLeft);
  const title = uploading ? 'Uploading files' : 'Uploads';
  const refused = refusedLine(invalid.length);
  const closeButton = uploading ? null : (
    <Button
      type="text"
      size="small"
      icon={<CloseOutlined aria-hidden />}
      aria-label="Close uploads"
      onClick={() => dispatch(uploadsActions.panelClosed())}
    />
  );

  if (panel === 'minimized') {
    const line = totalLine(totals);
    return (
      <section
        ref={ref}
        className="upload-panel upload-pill"
        aria-labelledby="upload-panel-title"
        data-testid="upload-panel"
        data-panel="minimized"
      >
        {uploading ? (
          <Progress
            type="circle"
            percent={totals.percent}
            size={20}
            showInfo={false}
            aria-label="Total upload progress"
          />
        ) : invalid.length > 0 || totals.failed > 0 ? (
          <WarningFilled className="upload-icon-warning" aria-hidden />
        ) : (
          <CheckCircleFilled className="upload-icon-ok" aria-hidden />
        )}
        {network === 'offline' ? (
          <DisconnectOutlined
            className="upload-icon-warning"
            aria-label={MESSAGES.noInternet}
            role="img"
          />
        ) : null}
        <h2 id="upload-panel-title" className="visually-hidden">
          {title}
        </h2>
        <span className="upload-pill-text" title={line} aria-live="polite">
          {line}
        </span>
        <Button
          type="text"
          size="small"
          icon={<UpOutlined aria-hidden />}
          aria-label="Show uploads"
          aria-expanded={false}
          onClick={() => dispatch(uploadsActions.panelRestored())}
        />
        {closeButton}
      </section>
    );
  }

  return (
    <section
      ref={ref}
      className="upload-panel"
      aria-labelledby="upload-panel-title"
      data-testid="upload-panel"
      data-panel="open"
    >
      <header className="upload-panel-header">
        <div className="upload-panel-heading">
          <h2 id="upload-panel-title" className="upload-panel-title">
            {title}
          </h2>
          <div className="upload-panel-summary" aria-live="polite">
            {refused ? (
              <>
                <WarningFilled aria-hidden /> {refused}
              </>
            ) : null}
          </div>
        </div>
        <div className="upload-panel-actions">
          {failedIds.length > 0 ? (
            <Tooltip title="Retry all failed uploads">
              <Button
                type="text"
                size="small"
                icon={<RedoOutlined aria-hidden />}
                aria-label="Retry all uploads"
                onClick={() => dispatch(uploadsActions.retryAllRequested({ ids: failedIds }))}
              />
            </Tooltip>
          ) : null}
          {uploading || failedIds.length > 0 ? (
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
          <Button
            type="text"
            size="small"
            icon={<DownOutlined aria-hidden />}
            aria-label="Minimize uploads"
            aria-expanded
            onClick={() => dispatch(uploadsActions.panelMinimized())}
          />
          {closeButton}
        </div>
      </header>
      {network === 'offline' ? (
        <Alert
          className="upload-offline"
          type="warning"
          showIcon
          icon={<DisconnectOutlined aria-hidden />}
          title={MESSAGES.noInternet}
          description={uploading ? 'Uploads resume when the connection is back.' : undefined}
          role="alert"
          data-testid="upload-offline"
        />
      ) : null}
      <div className="upload-panel-body">
        {invalid.length > 0 ? <Refusals invalid={invalid} /> : null}
        {files.length > 0 ? (
          <ul className="upload-list" aria-label="Files">
            {files.map((item) => (
              <UploadRow key={item.id} item={item} />
            ))}
          </ul>
        ) : null}
      </div>
      <footer className="upload-total">
        <div aria-live="polite">{totalLine(totals)}</div>
        {cancelled ? <div className="upload-status">Uploads cancelled.</div> : null}
        {speed && uploading ? (
          <div className="upload-status" data-testid="upload-total-speed">
            {speed}
          </div>
        ) : null}
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
