/**
 * The in-app viewer (docs/architecture.md "Client"): a full-window dialog over the page whose
 * address names the file. Header: the file's name and folder path, the previous and next file of
 * the page's list, Download, Print and Close. Body: the file as the browser shows it safely (PDF
 * through pdf.js, images, audio, video, plain text), or its PDF rendition ("Preparing preview…"
 * while document imaging makes it, the reason when it failed), or "No preview for this file type"
 * with a Download button. Escape closes it (the find box first closes itself).
 */
import {
  CloseOutlined,
  DownloadOutlined,
  LeftOutlined,
  PrinterOutlined,
  RightOutlined,
} from '@ant-design/icons';
import { Alert, Button, Spin, Steps, Tooltip } from 'antd';
import { useEffect, useRef } from 'react';
import { Link, useLocation } from 'react-router';
import { VIEWER_MESSAGES, type RenditionState } from '@common/imaging';
import { useAppSelector } from '@src/store/hooks';
import { folderRoute } from '@src/features/entities/components/FolderBreadcrumbs';
import {
  neighboursIn,
  selectViewerFile,
  selectViewerFileId,
  selectViewerList,
  selectViewerPage,
  selectViewerPath,
  selectViewerPhase,
  selectViewerUrls,
  type ViewerPhase,
  type ViewerUrls,
} from '../viewerSelectors';
import { useViewerNavigation } from '../viewerNavigation';
import type { ViewerCrumb, ViewerFile } from '../viewerSlice';
import { ImageView, MediaView, TextView } from './MediaViews';
import { PdfView } from './PdfView';

/** The steps shown while a rendition is made, and which step each state is at. */
const PREPARING_STEP: Record<RenditionState, number> = {
  waiting: 0,
  queued: 0,
  running: 1,
  done: 2,
  failed: 1,
  unsupported: 0,
};

/** What each pending state reads as. */
const PREPARING_TEXT: Partial<Record<RenditionState, string>> = {
  waiting: VIEWER_MESSAGES.waiting,
  queued: VIEWER_MESSAGES.queued,
  running: VIEWER_MESSAGES.running,
};

/** The download button of a state without a preview (none when the share forbids it). */
function DownloadButton({ urls, file }: { urls: ViewerUrls | null; file: ViewerFile | null }) {
  if (!urls?.download || !file) return null;
  return (
    <Button
      type="primary"
      icon={<DownloadOutlined aria-hidden />}
      href={urls.download}
      download={file.name}
    >
      Download
    </Button>
  );
}

/** "Preparing preview…" with the derivation's step, while the saga polls. */
function Preparing({ state, attempts }: { state: RenditionState; attempts: number }) {
  return (
    <div className="viewer-state" role="status" aria-live="polite">
      <Spin />
      <p className="viewer-state-title">{VIEWER_MESSAGES.preparing}</p>
      <Steps
        size="small"
        className="viewer-steps"
        current={PREPARING_STEP[state]}
        items={[{ title: 'Queued' }, { title: 'Converting' }, { title: 'Ready' }]}
      />
      <p className="viewer-state-detail">
        {PREPARING_TEXT[state]}
        {attempts > 0 ? ` (attempt ${attempts + 1})` : ''}
      </p>
    </div>
  );
}

/** The body for a phase. */
function ViewerBody({
  phase,
  file,
  urls,
  page,
  onPage,
}: {
  phase: ViewerPhase;
  file: ViewerFile | null;
  urls: ViewerUrls | null;
  page: number;
  onPage: (page: number) => void;
}) {
  switch (phase.kind) {
    case 'closed':
    case 'loading':
      return (
        <div className="viewer-state" role="status">
          <Spin />
          <p className="viewer-state-detail">Loading…</p>
        </div>
      );
    case 'error':
      return (
        <div className="viewer-state">
          <Alert
            type="error"
            showIcon
            title={VIEWER_MESSAGES.loadFailed}
            description={phase.message}
          />
          <DownloadButton urls={urls} file={file} />
        </div>
      );
    case 'preparing':
      return <Preparing state={phase.state} attempts={phase.attempts} />;
    case 'failed':
      return (
        <div className="viewer-state">
          <Alert
            type="warning"
            showIcon
            title={phase.reason ? VIEWER_MESSAGES.failed : VIEWER_MESSAGES.noRendition}
            description={
              phase.reason ? <code className="viewer-reason">{phase.reason}</code> : null
            }
          />
          <DownloadButton urls={urls} file={file} />
        </div>
      );
    case 'unsupported':
      return (
        <div className="viewer-state">
          <p className="viewer-state-title">{VIEWER_MESSAGES.unsupported}</p>
          <DownloadButton urls={urls} file={file} />
        </div>
      );
    case 'show':
      if (phase.content === 'pdf') {
        return <PdfView key={phase.url} url={phase.url} page={page} onPageChange={onPage} />;
      }
      if (phase.content === 'image') return <ImageView url={phase.url} name={file?.name ?? ''} />;
      if (phase.content === 'text') return <TextView url={phase.url} />;
      return <MediaView url={phase.url} kind={phase.content} name={file?.name ?? ''} />;
  }
}

/** The folders above the file: links to them for the firm's files, names for a guest's. */
function ViewerPath({ path, file }: { path: ViewerCrumb[]; file: ViewerFile | null }) {
  if (!file) return null;
  const firm = file.source === 'firm';
  const crumbs = firm ? [{ id: '', name: 'Home' }, ...path] : path;
  if (crumbs.length === 0) return null;
  return (
    <nav className="viewer-path" aria-label="Folder path">
      {crumbs.map((crumb, index) => (
        <span key={crumb.id || 'home'} className="viewer-path-item">
          {index > 0 ? <span aria-hidden> / </span> : null}
          {firm ? (
            <Link to={crumb.id ? folderRoute(crumb.id) : '/home'}>{crumb.name}</Link>
          ) : (
            crumb.name
          )}
        </span>
      ))}
    </nav>
  );
}

/**
 * The viewer overlay (lazy: its own chunk, with pdf.js loaded by PdfView only for PDFs).
 * @returns the dialog, focused when it opens
 */
export function Viewer() {
  const phase = useAppSelector(selectViewerPhase);
  const file = useAppSelector(selectViewerFile);
  const fileId = useAppSelector(selectViewerFileId);
  const path = useAppSelector(selectViewerPath);
  const urls = useAppSelector(selectViewerUrls);
  const page = useAppSelector(selectViewerPage);
  const { pathname } = useLocation();
  const list = useAppSelector((state) => selectViewerList(state, pathname));
  const { previous, next, listed } = neighboursIn(list, fileId);
  const navigation = useViewerNavigation();
  const { close } = navigation;
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    root.current?.focus();
  }, [fileId]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      close();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [close]);

  const name = file?.name ?? '';
  return (
    <div
      className="viewer-overlay"
      role="dialog"
      aria-modal="true"
      aria-labelledby="viewer-title"
      tabIndex={-1}
      ref={root}
      data-testid="viewer"
    >
      <header className="viewer-header">
        <div className="viewer-heading">
          <h2 id="viewer-title" className="viewer-title" title={name}>
            {name || 'Viewer'}
          </h2>
          <ViewerPath path={path} file={file} />
        </div>
        <div className="viewer-actions">
          {listed ? (
            <>
              <Tooltip title={previous ? `Previous: ${previous.name}` : 'No previous file'}>
                <Button
                  icon={<LeftOutlined aria-hidden />}
                  aria-label="Previous file"
                  disabled={!previous}
                  onClick={() => previous && navigation.openFile(previous.id)}
                />
              </Tooltip>
              <Tooltip title={next ? `Next: ${next.name}` : 'No next file'}>
                <Button
                  icon={<RightOutlined aria-hidden />}
                  aria-label="Next file"
                  disabled={!next}
                  onClick={() => next && navigation.openFile(next.id)}
                />
              </Tooltip>
            </>
          ) : null}
          {urls?.download ? (
            <Tooltip title="Download">
              <Button
                icon={<DownloadOutlined aria-hidden />}
                href={urls.download}
                download={name}
                aria-label={`Download ${name}`}
              />
            </Tooltip>
          ) : null}
          {urls?.print && phase.kind === 'show' ? (
            <Tooltip title="Print">
              <Button
                icon={<PrinterOutlined aria-hidden />}
                href={urls.print}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={`Print ${name}`}
              />
            </Tooltip>
          ) : null}
          <Tooltip title="Close (Esc)">
            <Button
              icon={<CloseOutlined aria-hidden />}
              aria-label="Close viewer"
              onClick={close}
            />
          </Tooltip>
        </div>
      </header>
      <div className="viewer-body">
        <ViewerBody
          phase={phase}
          file={file}
          urls={urls}
          page={page}
          onPage={navigation.goToPage}
        />
      </div>
    </div>
  );
}
