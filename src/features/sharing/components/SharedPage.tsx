/**
 * The Shared page: /shared for internal users (tabs "Shared with me" and "Shared
 * by me"; ?tab=by-me keeps the second across a reload) and /sharing/shared for guests, with
 * /…/folders/:folderId deep links inside a shared folder, its own breadcrumbs (from the shared
 * root down), a virtualised list, and Preview (new tab) and Download of files (when the share
 * allows it). A file the browser cannot show inline has no preview: its name downloads it (or is
 * plain text when the share does not allow downloading) and its Preview action is disabled.
 * Opening a file first checks the access; once the server says it has ended the page
 * says "Your access to this item has ended." With the sharing flag off nothing is shared.
 */
import { CopyOutlined, DownloadOutlined, EyeOutlined } from '@ant-design/icons';
import {
  Alert,
  App,
  Breadcrumb,
  Button,
  Empty,
  Input,
  Modal,
  Popconfirm,
  Result,
  Space,
  Spin,
  Tabs,
  Tag,
} from 'antd';
import { memo, useCallback, useEffect, type MouseEvent, type ReactNode } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { SHARED_LANDING, SHARING_MESSAGES, type SharedByMeState } from '@common/sharing';
import { PageTitle } from '@src/components/PageTitle';
import { FileThumbnail } from '@src/features/imaging/components/FileThumbnail';
import { ListLayoutToggle } from '@src/features/imaging/components/ListLayoutToggle';
import { selectListLayout } from '@src/features/imaging/imagingSelectors';
import { VirtualList } from '@src/components/VirtualList';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import {
  FileNameLink,
  NO_PREVIEW_NO_DOWNLOAD_TEXT,
  NoPreviewButton,
} from '@src/features/entities/components/FileNameLink';
import { selectCurrentDatabaseId } from '@src/features/session/sessionSelectors';
import { sharedFileUrl, type SharedFileMode } from '../sharingApi';
import {
  selectIsGuest,
  selectShared,
  selectSharedByMeRows,
  selectSharedRows,
  selectSharingEnabled,
  type SharedRow,
} from '../sharingSelectors';
import { sharingActions } from '../sharingSlice';
import { ViewerLink } from '@src/features/viewer/components/ViewerLink';
import './sharing.css';

/** The internal users' Shared route. */
const INTERNAL_SHARED_ROUTE = '/shared';

/** Text of the empty top level (nothing shared with the user). */
const EMPTY_SHARED_TEXT = 'Nothing has been shared with you yet.';
/** Text of an empty shared folder. */
export const EMPTY_FOLDER_TEXT = 'This folder is empty.';
/** Text of the empty Shared by me list. */
const EMPTY_BY_ME_TEXT =
  'You have not shared anything yet. Use Share in an item’s details to share it.';

/** The base route of the page the user is on: /sharing/shared or /shared. */
function sharedBase(pathname: string): string {
  return pathname.startsWith(SHARED_LANDING) ? SHARED_LANDING : INTERNAL_SHARED_ROUTE;
}

/** The route of a shared folder under a base ('' is the shared top level). */
function sharedFolderRoute(base: string, folderId: string): string {
  return folderId ? `${base}/folders/${encodeURIComponent(folderId)}` : base;
}

/** Whether a click is a plain left click (modified clicks keep the browser's own behaviour). */
function isPlainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/** A link to a shared file's preview or download that checks the access before opening it. */
function SharedFileLink({
  row,
  mode,
  className,
  children,
  label,
}: {
  row: SharedRow;
  mode: SharedFileMode;
  className?: string;
  children: ReactNode;
  label?: string;
}) {
  const dispatch = useAppDispatch();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!isPlainClick(event)) return;
    event.preventDefault();
    dispatch(sharingActions.fileOpenRequested({ fileId: row.id, folderId: row.folderId, mode }));
  };
  return (
    <a
      className={className}
      href={sharedFileUrl(row.id, mode)}
      aria-label={label}
      {...(mode === 'preview'
        ? { target: '_blank', rel: 'noopener noreferrer' }
        : { download: row.name })}
      onClick={onClick}
    >
      {children}
    </a>
  );
}

/**
 * The name of a shared file: opens its preview when it has one, else its download when
 * `downloadAllowed`, else plain text saying why.
 */
function SharedFileName({ row, downloadAllowed }: { row: SharedRow; downloadAllowed: boolean }) {
  if (row.viewable) {
    return (
      <ViewerLink fileId={row.id} className="entity-name">
        {row.name}
      </ViewerLink>
    );
  }
  if (row.previewable) {
    return (
      <SharedFileLink row={row} mode="preview" className="entity-name">
        {row.name}
      </SharedFileLink>
    );
  }
  if (downloadAllowed) {
    return (
      <SharedFileLink row={row} mode="download" className="entity-name">
        {row.name}
      </SharedFileLink>
    );
  }
  return (
    <span className="entity-name" title={NO_PREVIEW_NO_DOWNLOAD_TEXT}>
      {row.name}
    </span>
  );
}

/**
 * One row of what was shared with the user (or of an open shared folder); `canDownload` is
 * whether the listed folder's share allows downloading.
 */
const SharedRowView = memo(function SharedRowView({
  row,
  index,
  base,
  canDownload,
}: {
  row: SharedRow;
  index: number;
  base: string;
  canDownload: boolean;
}) {
  const isFolder = row.type === 'folder';
  const downloadAllowed = canDownload && row.allowDownload;
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      className="shared-row"
      data-testid="shared-row"
      data-entity-id={row.id}
    >
      <div role="cell" className="entity-cell entity-cell-name">
        <FileThumbnail
          id={row.id}
          kind={row.kind}
          thumbnail={row.thumbnail}
          awaited={row.thumbnailAwaited}
          shared
        />
        {isFolder ? (
          <Link className="entity-name" to={sharedFolderRoute(base, row.id)}>
            {row.name}
          </Link>
        ) : (
          <SharedFileName row={row} downloadAllowed={downloadAllowed} />
        )}
      </div>
      <div role="cell" className="entity-cell shared-cell-by">
        {row.sharedBy}
      </div>
      <div role="cell" className="entity-cell entity-cell-date">
        {row.sharedText}
      </div>
      <div role="cell" className="entity-cell entity-cell-size">
        {row.sizeText}
      </div>
      <div role="cell" className="entity-cell shared-cell-actions">
        {isFolder ? null : (
          <>
            {row.viewable ? (
              <ViewerLink fileId={row.id} aria-label={`Preview ${row.name}`}>
                <EyeOutlined aria-hidden /> Preview
              </ViewerLink>
            ) : row.previewable ? (
              <SharedFileLink row={row} mode="preview" label={`Preview ${row.name}`}>
                <EyeOutlined aria-hidden /> Preview
              </SharedFileLink>
            ) : (
              <NoPreviewButton
                type="link"
                size="small"
                className="shared-action-button"
                label={`Preview ${row.name}`}
              >
                Preview
              </NoPreviewButton>
            )}
            {downloadAllowed ? (
              <SharedFileLink row={row} mode="download" label={`Download ${row.name}`}>
                <DownloadOutlined aria-hidden /> Download
              </SharedFileLink>
            ) : null}
          </>
        )}
      </div>
    </div>
  );
});

/**
 * One row of Shared by me: the item in the firm (a file's name previews or downloads it, see
 * {@link FileNameLink}), its recipient and their state, Copy link (while the link works: a new URL,
 * the one copied before stops working) and Remove access (while the recipient has access).
 */
const SharedByMeRowView = memo(function SharedByMeRowView({
  row,
  index,
}: {
  row: SharedRow;
  index: number;
}) {
  const dispatch = useAppDispatch();
  const removing = useAppSelector((state) => state.sharing.shared.removing.includes(row.shareId));
  const reissuing = useAppSelector((state) => state.sharing.shared.reissuing === row.linkId);
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      className="shared-row"
      data-testid="shared-by-me-row"
      data-entity-id={row.id}
    >
      <div role="cell" className="entity-cell entity-cell-name">
        <FileThumbnail id={row.id} kind={row.kind} thumbnail={false} />
        {row.type === 'folder' ? (
          <Link className="entity-name" to={`/home/folders/${encodeURIComponent(row.id)}`}>
            {row.name}
          </Link>
        ) : (
          <FileNameLink file={{ id: row.id, name: row.name, previewable: row.viewable }} />
        )}
      </div>
      <div role="cell" className="entity-cell shared-cell-by">
        <span className="shared-recipient">{row.recipient}</span>
        <Tag className="shared-state" color={STATE_COLORS[row.state ?? 'pending']}>
          {row.stateLabel}
        </Tag>
      </div>
      <div role="cell" className="entity-cell entity-cell-date">
        {row.sharedText}
      </div>
      <div role="cell" className="entity-cell entity-cell-size">
        {row.sizeText}
      </div>
      <div role="cell" className="entity-cell shared-cell-actions">
        {row.linkLive ? (
          <Popconfirm
            title="Copy a new link?"
            description={REISSUE_WARNING}
            okText="Make new link"
            onConfirm={() =>
              dispatch(sharingActions.linkReissueRequested({ linkId: row.linkId, name: row.name }))
            }
          >
            <Button
              size="small"
              icon={<CopyOutlined aria-hidden />}
              loading={reissuing}
              aria-label={`Copy link of ${row.name} (${row.recipient})`}
            >
              Copy link
            </Button>
          </Popconfirm>
        ) : null}
        {row.state === 'accepted' ? (
          <Button
            size="small"
            danger
            loading={removing}
            aria-label={`Remove access of ${row.recipient} to ${row.name}`}
            onClick={() => dispatch(sharingActions.shareRemovalRequested({ shareId: row.shareId }))}
          >
            Remove access
          </Button>
        ) : null}
      </div>
    </div>
  );
});

const rowKey = (row: SharedRow) => row.key;

/** Colour of each state's tag in Shared by me. */
const STATE_COLORS: Record<SharedByMeState, string> = {
  pending: 'gold',
  accepted: 'green',
  expired: 'default',
  revoked: 'red',
  removed: 'default',
  cancelled: 'default',
};

/** What copying a link again does (only a hash of a link's token is stored). */
const REISSUE_WARNING =
  'A new link is made: the link copied before stops working. E-mailed invitations and people who already have access are kept.';

/** Shared by me: the new URL of a link copied again, to copy (shown until closed). */
function ReissuedLink() {
  const dispatch = useAppDispatch();
  const { message } = App.useApp();
  const reissued = useAppSelector((state) => state.sharing.shared.reissued);
  const close = () => dispatch(sharingActions.linkReissueClosed());
  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      void message.success('Link copied.');
    } catch {
      void message.error('The link could not be copied; select it and copy it by hand.');
    }
  };
  if (!reissued) return null;
  return (
    <Modal
      open
      title={`New link to ${reissued.name}`}
      onCancel={close}
      footer={<Button onClick={close}>Done</Button>}
      destroyOnHidden
    >
      <Alert className="share-alert" type="info" showIcon title={REISSUE_WARNING} />
      <Space.Compact className="share-link-row">
        <Input
          readOnly
          value={reissued.url}
          aria-label="Share link"
          onFocus={(e) => e.target.select()}
        />
        <Button icon={<CopyOutlined aria-hidden />} onClick={() => void copy(reissued.url)}>
          Copy link
        </Button>
      </Space.Compact>
    </Modal>
  );
}

/** The table of rows with its header, or the empty state. */
function SharedTable({
  rows,
  label,
  whoLabel,
  emptyText,
  renderRow,
}: {
  rows: readonly SharedRow[];
  label: string;
  whoLabel: string;
  emptyText: string;
  renderRow: (row: SharedRow, index: number) => ReactNode;
}) {
  const layout = useAppSelector(selectListLayout);
  if (rows.length === 0) {
    return (
      <Empty
        className="page-empty"
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={emptyText}
        data-testid="shared-empty"
      />
    );
  }
  return (
    <div
      className={
        layout === 'grid'
          ? 'entity-table shared-table entity-table-grid'
          : 'entity-table shared-table'
      }
      role="table"
      aria-label={label}
      aria-rowcount={rows.length + 1}
    >
      <div role="rowgroup" className="entity-table-head">
        <div role="row" aria-rowindex={1} className="shared-row entity-row-head">
          <div role="columnheader" className="entity-cell entity-cell-name">
            Name
          </div>
          <div role="columnheader" className="entity-cell shared-cell-by">
            {whoLabel}
          </div>
          <div role="columnheader" className="entity-cell entity-cell-date">
            Shared
          </div>
          <div role="columnheader" className="entity-cell entity-cell-size">
            Size
          </div>
          <div role="columnheader" className="entity-cell shared-cell-actions">
            <span className="visually-hidden">Actions</span>
          </div>
        </div>
      </div>
      <div className="entity-table-body">
        <VirtualList
          items={rows}
          itemKey={rowKey}
          renderItem={renderRow}
          role="rowgroup"
          layout={layout}
        />
      </div>
    </div>
  );
}

/** The breadcrumbs inside a shared folder: Shared, then the chain from the shared root down. */
function SharedBreadcrumbs({ base }: { base: string }) {
  const { crumbs, folderId } = useAppSelector(selectShared);
  const chain = crumbs.length > 0 ? crumbs : [{ id: folderId, name: '…' }];
  const items = [
    { key: 'shared', title: <Link to={base}>Shared</Link> },
    ...chain.map((crumb, index) => ({
      key: crumb.id,
      title:
        index === chain.length - 1 ? (
          <span aria-current="page">{crumb.name}</span>
        ) : (
          <Link to={sharedFolderRoute(base, crumb.id)}>{crumb.name}</Link>
        ),
    })),
  ];
  return <Breadcrumb className="shared-breadcrumbs" items={items} />;
}

/** The Shared page. */
export function SharedPage() {
  const dispatch = useAppDispatch();
  const enabled = useAppSelector(selectSharingEnabled);
  const guest = useAppSelector(selectIsGuest);
  const databaseId = useAppSelector(selectCurrentDatabaseId);
  const shared = useAppSelector(selectShared);
  const rows = useAppSelector(selectSharedRows);
  const byMeRows = useAppSelector(selectSharedByMeRows);
  const { pathname } = useLocation();
  const { folderId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const base = sharedBase(pathname);
  const scope = guest ? 'guest' : 'internal';
  const tab = params.get('tab') === 'by-me' && !guest && !folderId ? 'by-me' : 'with-me';

  const open = useCallback(() => {
    dispatch(sharingActions.sharedOpened({ scope, folderId }));
  }, [dispatch, scope, folderId]);

  useEffect(() => {
    if (enabled) open();
  }, [enabled, open, databaseId]);

  const renderRow = useCallback(
    (row: SharedRow, index: number) => (
      <SharedRowView row={row} index={index} base={base} canDownload={shared.allowDownload} />
    ),
    [base, shared.allowDownload],
  );
  const renderByMeRow = useCallback(
    (row: SharedRow, index: number) => <SharedByMeRowView row={row} index={index} />,
    [],
  );

  let body: ReactNode;
  if (!enabled) {
    body = (
      <Empty
        className="page-empty"
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={EMPTY_SHARED_TEXT}
        data-testid="shared-empty"
      />
    );
  } else if (shared.accessEnded) {
    body = (
      <Result
        status="warning"
        title={SHARING_MESSAGES.accessEnded}
        extra={
          <Link to={base} onClick={() => folderId === '' && open()}>
            Back to Shared
          </Link>
        }
      />
    );
  } else if (shared.list.status === 'failed') {
    body = (
      <Result
        status="warning"
        title="Shared items could not be loaded."
        subTitle={shared.list.error}
        extra={<Button onClick={open}>Try again</Button>}
      />
    );
  } else if (shared.list.status !== 'succeeded') {
    body = (
      <div className="list-loading" role="status">
        <Spin description="Loading…">
          <div className="list-loading-area" />
        </Spin>
      </div>
    );
  } else if (folderId || guest) {
    body = (
      <SharedTable
        rows={rows}
        label={folderId ? 'Shared folder' : 'Shared with me'}
        whoLabel="Shared by"
        emptyText={folderId ? EMPTY_FOLDER_TEXT : EMPTY_SHARED_TEXT}
        renderRow={renderRow}
      />
    );
  } else {
    body = (
      <Tabs
        className="shared-tabs"
        activeKey={tab}
        onChange={(key) => setParams(key === 'by-me' ? { tab: 'by-me' } : {}, { replace: true })}
        items={[
          {
            key: 'with-me',
            label: 'Shared with me',
            children: (
              <SharedTable
                rows={rows}
                label="Shared with me"
                whoLabel="Shared by"
                emptyText={EMPTY_SHARED_TEXT}
                renderRow={renderRow}
              />
            ),
          },
          {
            key: 'by-me',
            label: 'Shared by me',
            children: (
              <>
                {shared.actionError ? (
                  <Alert className="share-alert" type="error" showIcon title={shared.actionError} />
                ) : null}
                <SharedTable
                  rows={byMeRows}
                  label="Shared by me"
                  whoLabel="Shared with"
                  emptyText={EMPTY_BY_ME_TEXT}
                  renderRow={renderByMeRow}
                />
                <ReissuedLink />
              </>
            ),
          },
        ]}
      />
    );
  }

  return (
    <div className="page shared-page">
      <PageTitle extra={enabled ? <ListLayoutToggle /> : null}>Shared</PageTitle>
      {enabled && folderId && !shared.accessEnded ? <SharedBreadcrumbs base={base} /> : null}
      {body}
    </div>
  );
}
