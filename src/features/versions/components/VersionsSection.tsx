/**
 * The details panel's "Versions" section of a file (docs/architecture.md "File versions"): every
 * version, newest first, with its number, size, sha256 (shortened; the full value on hover, to
 * screen readers and by Copy), who uploaded or restored it and when; each can be previewed (a new
 * tab) and downloaded; an older one can be restored as the newest (members and administrators)
 * and deleted after a confirmation (administrators). Archived files list their versions only.
 */
import { CopyOutlined } from '@ant-design/icons';
import { App, Button, Popconfirm, Space, Spin, Tag, Tooltip } from 'antd';
import { useEffect } from 'react';
import { formatDate, formatSize } from '@common/format';
import type { FileDto } from '@common/entities';
import { shortSha256, type FileVersionDto } from '@common/versions';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { versionUrl } from '../versionsApi';
import { selectVersionRights, selectVersions } from '../versionsSelectors';
import { versionsActions } from '../versionsSlice';
import './versions.css';

/** The section's heading. */
const VERSIONS_TITLE = 'Versions';

/** The sha256 of a version: shortened, the full value on hover and to screen readers, and Copy. */
function Sha256({ sha256, number }: { sha256: string | null; number: number }) {
  const { message } = App.useApp();
  if (!sha256) return <span className="version-sha">SHA-256 not computed yet</span>;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(sha256);
      void message.success('SHA-256 copied.');
    } catch {
      void message.error('The SHA-256 could not be copied.');
    }
  };
  return (
    <span className="version-sha">
      SHA-256{' '}
      <Tooltip title={sha256}>
        <code className="version-sha-value" title={sha256}>
          <span aria-hidden="true">{shortSha256(sha256)}</span>
          <span className="visually-hidden">{sha256}</span>
        </code>
      </Tooltip>
      <Button
        type="text"
        size="small"
        icon={<CopyOutlined aria-hidden />}
        aria-label={`Copy the SHA-256 of version ${number}`}
        onClick={() => void copy()}
      />
    </span>
  );
}

/** One version with its actions. */
function VersionRow({ file, version }: { file: FileDto; version: FileVersionDto }) {
  const dispatch = useAppDispatch();
  const { pending } = useAppSelector(selectVersions);
  const { canRestore, canDelete } = useAppSelector(selectVersionRights);
  const live = file.archived_at === null;
  const { number } = version;
  const busy = pending !== null;
  return (
    <li className="version-row" aria-label={`Version ${number}`}>
      <div className="version-head">
        <span className="version-number">Version {number}</span>
        {version.newest ? <Tag color="blue">Newest</Tag> : null}
        {version.restored_from !== null ? (
          <span className="version-origin">restored from version {version.restored_from}</span>
        ) : null}
      </div>
      <div className="version-meta">
        {formatSize(version.size)} · {version.created_by_name || version.created_by} ·{' '}
        <time dateTime={version.created_at}>{formatDate(version.created_at)}</time>
      </div>
      <Sha256 sha256={version.sha256} number={number} />
      <Space wrap size={[8, 4]} className="version-actions">
        <Button
          size="small"
          href={versionUrl(file.id, number, 'preview')}
          target="_blank"
          rel="noopener"
          aria-label={`Preview version ${number}`}
        >
          Preview
        </Button>
        <Button
          size="small"
          href={versionUrl(file.id, number, 'download')}
          download
          aria-label={`Download version ${number}`}
        >
          Download
        </Button>
        {live && canRestore && !version.newest ? (
          <Button
            size="small"
            loading={pending?.kind === 'restore' && pending.number === number}
            disabled={busy}
            aria-label={`Restore version ${number} as newest`}
            onClick={() => dispatch(versionsActions.restoreRequested({ fileId: file.id, number }))}
          >
            Restore as newest
          </Button>
        ) : null}
        {live && canDelete && !version.newest ? (
          <Popconfirm
            title={`Delete version ${number} for good?`}
            description="Its bytes are removed; History keeps a record of it."
            okText="Delete version"
            okButtonProps={{ danger: true }}
            onConfirm={() => dispatch(versionsActions.deleteRequested({ fileId: file.id, number }))}
          >
            <Button
              size="small"
              danger
              loading={pending?.kind === 'delete' && pending.number === number}
              disabled={busy}
              aria-label={`Delete version ${number}`}
            >
              Delete
            </Button>
          </Popconfirm>
        ) : null}
      </Space>
    </li>
  );
}

/** The section of a file. */
export function VersionsSection({ file }: { file: FileDto }) {
  const dispatch = useAppDispatch();
  const state = useAppSelector(selectVersions);

  useEffect(() => {
    dispatch(versionsActions.versionsRequested({ fileId: file.id }));
  }, [dispatch, file.id]);

  const current = state.fileId === file.id;
  let body;
  if (!current || (state.status === 'loading' && state.items.length === 0)) {
    body = (
      <span role="status">
        <Spin size="small" /> Loading versions…
      </span>
    );
  } else if (state.status === 'failed') {
    body = (
      <p role="alert" className="versions-error">
        {state.error}{' '}
        <Button
          size="small"
          onClick={() => dispatch(versionsActions.versionsRequested({ fileId: file.id }))}
        >
          Try again
        </Button>
      </p>
    );
  } else {
    body = (
      <ol className="versions-list" aria-label="Versions of this file">
        {state.items.map((version) => (
          <VersionRow key={version.number} file={file} version={version} />
        ))}
      </ol>
    );
  }
  return (
    <section className="versions-section" aria-labelledby="versions-title">
      <h3 id="versions-title" className="versions-title">
        {VERSIONS_TITLE}
        {current && state.items.length > 0 ? (
          <span className="versions-count"> ({state.items.length})</span>
        ) : null}
      </h3>
      {current && state.actionError ? (
        <p role="alert" className="versions-error">
          {state.actionError}
        </p>
      ) : null}
      {body}
    </section>
  );
}
