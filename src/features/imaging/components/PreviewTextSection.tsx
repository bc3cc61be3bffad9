/**
 * The details panel's "Preview and text" section of a file (docs/architecture.md "Document
 * imaging"): whether its preview is ready, being prepared (asked again every
 * RENDITION_POLL_MS while the panel shows it), failed (with the reason; a missing tool is named
 * with its install command) or not available for its type; what text document imaging got from
 * it ("Text recognised" by OCR or "Text extracted", with its pages); and for administrators a
 * Retry of a failed derivation.
 */
import { ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Spin } from 'antd';
import { useEffect } from 'react';
import type { FileRenditionDto } from '@common/imaging';
import { plural } from '@common/text';
import type { EntityDto } from '@common/entities';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectIsAdmin } from '@src/features/session/sessionSelectors';
import { selectRendition, selectRetry } from '../imagingSelectors';
import { imagingActions } from '../imagingSlice';
import './imaging.css';

/** How often a derivation in progress is read again while the section shows it, in ms. */
const RENDITION_POLL_MS = 5000;

/** The section's heading. */
const PREVIEW_TEXT_TITLE = 'Preview and text';

/** What the section says of each state. */
export const PREVIEW_STATE_TEXT = {
  done: 'Preview ready.',
  preparing: 'Preparing the preview…',
  failed: 'The preview could not be prepared.',
  unsupported: 'No preview or text is made for this type of file.',
  /** A video: its thumbnail is the only derivative. */
  thumbnailOnly: 'Thumbnail ready (a frame of the video).',
  /** Derived without anything to show (a video file with no picture). */
  nothingMade: 'No thumbnail could be made from this file.',
} as const;

/** The states in which the derivation is still to come. */
const PREPARING: ReadonlySet<FileRenditionDto['state']> = new Set(['waiting', 'queued', 'running']);

/**
 * A failure reason split into its message and the install command it names (the server words a
 * missing tool as "… not found (needed for …): apt-get install -y …").
 * @returns the message, and the command or null
 */
export function splitInstallCommand(reason: string): { message: string; command: string | null } {
  const at = reason.indexOf('apt-get install');
  if (at < 0) return { message: reason, command: null };
  return { message: reason.slice(0, at).replace(/[:\s]+$/, ''), command: reason.slice(at).trim() };
}

/** A failure reason, with its install command as code. */
export function FailureReason({ reason }: { reason: string }) {
  const { message, command } = splitInstallCommand(reason);
  return (
    <span className="imaging-reason">
      {message}
      {command ? (
        <>
          {'. Install with '}
          <code>{command}</code>
        </>
      ) : null}
    </span>
  );
}

/** "Text recognised (OCR), 3 pages" or "Text extracted, 1 page"; null when no text is stored. */
function textSummary(rendition: FileRenditionDto): string | null {
  if (!rendition.text) return null;
  const how = rendition.recognized ? 'Text recognised (OCR)' : 'Text extracted';
  const pages = rendition.page_count;
  return pages === null ? how : `${how}, ${pages} ${plural(pages, 'page')}`;
}

/** The Retry button of a failed derivation (administrators). */
function RetryButton({ jobId, fileId }: { jobId: string; fileId: string }) {
  const dispatch = useAppDispatch();
  const retry = useAppSelector((state) => selectRetry(state, jobId));
  return (
    <>
      <Button
        size="small"
        icon={<ReloadOutlined aria-hidden />}
        loading={retry.status === 'loading'}
        onClick={() => dispatch(imagingActions.retryRequested({ jobId, fileId }))}
      >
        Retry
      </Button>
      {retry.status === 'failed' ? (
        <span role="alert" className="imaging-retry-error">
          {' '}
          {retry.error}
        </span>
      ) : null}
    </>
  );
}

/** The state of a loaded derivation. */
function RenditionState({ fileId, rendition }: { fileId: string; rendition: FileRenditionDto }) {
  const isAdmin = useAppSelector(selectIsAdmin);
  const text = textSummary(rendition);
  if (rendition.state === 'unsupported') return <p>{PREVIEW_STATE_TEXT.unsupported}</p>;
  if (rendition.state === 'failed') {
    return (
      <Alert
        type="warning"
        showIcon
        title={PREVIEW_STATE_TEXT.failed}
        description={rendition.reason ? <FailureReason reason={rendition.reason} /> : null}
        action={
          isAdmin && rendition.job_id ? (
            <RetryButton jobId={rendition.job_id} fileId={fileId} />
          ) : null
        }
      />
    );
  }
  if (PREPARING.has(rendition.state)) {
    return (
      <div role="status" className="preview-text-preparing">
        <Spin size="small" /> {PREVIEW_STATE_TEXT.preparing}
      </div>
    );
  }
  if (!rendition.pdf && !rendition.text) {
    return (
      <p>
        {rendition.thumbnail ? PREVIEW_STATE_TEXT.thumbnailOnly : PREVIEW_STATE_TEXT.nothingMade}
      </p>
    );
  }
  return (
    <>
      <p>{PREVIEW_STATE_TEXT.done}</p>
      {text ? <p>{text}</p> : null}
    </>
  );
}

/** The section of a file; nothing for a folder. */
export function PreviewTextSection({ entity }: { entity: EntityDto }) {
  const dispatch = useAppDispatch();
  const fileId = entity.type === 'file' ? entity.id : null;
  // A new version of the file (new bytes) is derived anew: its state is read again.
  const sha256 = entity.type === 'file' ? entity.sha256 : null;
  const entry = useAppSelector((state) => selectRendition(state, fileId ?? ''));
  const preparing = entry.data !== null && PREPARING.has(entry.data.state);

  useEffect(() => {
    if (fileId) dispatch(imagingActions.renditionRequested({ fileId }));
  }, [dispatch, fileId, sha256]);

  useEffect(() => {
    if (!fileId || !preparing) return;
    const timer = setInterval(
      () => dispatch(imagingActions.renditionRequested({ fileId })),
      RENDITION_POLL_MS,
    );
    return () => clearInterval(timer);
  }, [dispatch, fileId, preparing]);

  if (!fileId) return null;
  let body;
  if (entry.data) body = <RenditionState fileId={fileId} rendition={entry.data} />;
  else if (entry.status === 'failed') {
    body = (
      <p role="alert">
        {entry.error}{' '}
        <Button
          size="small"
          onClick={() => dispatch(imagingActions.renditionRequested({ fileId }))}
        >
          Try again
        </Button>
      </p>
    );
  } else body = <Spin size="small" />;
  return (
    <section
      className="preview-text-section"
      aria-label={PREVIEW_TEXT_TITLE}
      data-testid="preview-text-section"
    >
      <h3>{PREVIEW_TEXT_TITLE}</h3>
      {body}
    </section>
  );
}
