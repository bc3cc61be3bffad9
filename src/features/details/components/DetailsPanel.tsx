/**
 * The entity side panel (SPEC section 2), mounted once in the app shell and opened
 * by `details/panelOpened` from any list: the item's name (renamed in place), type, size, dates,
 * who created it and its path, its actions (open or preview, rename, move, favorite, download,
 * history, archive; all through the organise events; Preview is disabled for a file the browser
 * cannot show inline), and with the fileStats flag a folder's statistics with the
 * by-type breakdown; a file's versions. The root shows the firm's statistics.
 */
import {
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  FolderOpenOutlined,
  EyeOutlined,
  HistoryOutlined,
  StarFilled,
  StarOutlined,
  SwapOutlined,
} from '@ant-design/icons';
import { Breadcrumb, Button, Drawer, Input, Result, Space, Spin } from 'antd';
import { useState, type KeyboardEvent } from 'react';
import { Link, useMatch, useNavigate } from 'react-router';
import { ROOT_FOLDER_ID } from '@common/constants';
import { isViewable } from '@common/imaging';
import { formatDate, formatSize } from '@common/format';
import {
  fileNameKeepingExtension,
  renameExtensionNotice,
  splitFileName,
  validateEntityName,
} from '@common/names';
import { plural } from '@common/text';
import type { BreadcrumbDto, EntityDto, EntityRef } from '@common/entities';
import { EntityIcon } from '@src/components/EntityIcon';
import { DETAILS_PANE_QUERY, useMediaQuery } from '@src/components/useMediaQuery';
import { useReturnFocus } from '@src/components/useReturnFocus';
import { FolderPermissionsButton } from '@src/features/folderPermissions/components/FolderPermissions';
import { ProtectionSection } from '@src/features/records/components/ProtectionSection';
import { ExaminerExportButton } from '@src/features/examinerExport/components/ExaminerExportDialog';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { NoPreviewButton } from '@src/features/entities/components/FileNameLink';
import { useOpenInViewer } from '@src/features/viewer/viewerNavigation';
import { selectFeatureFlag } from '@src/features/flags/flagsSelectors';
import { EntityHistoryDrawer } from '@src/features/history/components/EntityHistoryDrawer';
import { historyActions } from '@src/features/history/historySlice';
import { organiseEvents } from '@src/features/organise/organiseEvents';
import { selectCurrentRole } from '@src/features/session/sessionSelectors';
import { downloadUrl } from '../detailsApi';
import { selectDetails, selectDetailsKind, typeText } from '../detailsSelectors';
import { detailsActions } from '../detailsSlice';
import { FolderContactsSection } from '@src/features/contacts/components/FolderContactsSection';
import { AppliedIndexesSection } from '@src/features/indexFields/components/AppliedIndexesSection';
import { PreviewTextSection } from '@src/features/imaging/components/PreviewTextSection';
import { ShareButton } from '@src/features/sharing/components/ShareButton';
import { VersionsSection } from '@src/features/versions/components/VersionsSection';
import { DetailsPane } from './DetailsPane';
import { FirmStatsCard } from './FirmStatsCard';
import { StatsBreakdown } from './StatsBreakdown';
import './details.css';

/** The route of a folder in the folder view ('' is the root: /home). */
export function folderPath(folderId: string): string {
  return folderId ? `/home/folders/${encodeURIComponent(folderId)}` : '/home';
}

/** The panel's title for the root folder. */
const ROOT_PANEL_TITLE = 'Home';

/** The location line: Home › top-level folder › … › parent, each a link to the folder view. */
function LocationPath({ path }: { path: BreadcrumbDto[] }) {
  const items = [
    { key: 'home', title: <Link to="/home">Home</Link> },
    ...path.map((crumb) => ({
      key: crumb.id,
      title: <Link to={folderPath(crumb.id)}>{crumb.name}</Link>,
    })),
  ];
  return <Breadcrumb className="details-path" items={items} />;
}

/** Props of {@link RenameForm}. */
interface RenameFormProps {
  entity: EntityDto;
  onDone: () => void;
}

/**
 * Inline rename: Enter (or Save) asks the organise saga to rename, Esc (or Cancel) gives up. A
 * file's extension stays (the server appends it when the new name lacks it).
 */
function RenameForm({ entity, onDone }: RenameFormProps) {
  const dispatch = useAppDispatch();
  const initial = entity.type === 'file' ? splitFileName(entity.name).base : entity.name;
  const [name, setName] = useState(initial || entity.name);
  const [error, setError] = useState<string | null>(null);
  // A name typed with another extension than the file's: say the name that will be saved.
  const notice = entity.type === 'file' ? renameExtensionNotice(name, entity.extension) : null;

  const save = () => {
    const trimmed = name.trim();
    const problem = validateEntityName(trimmed, entity.type);
    if (problem) {
      setError(problem);
      return;
    }
    const full =
      entity.type === 'file' ? fileNameKeepingExtension(trimmed, entity.extension) : trimmed;
    if (full !== entity.name) {
      dispatch(
        organiseEvents.renameRequested({
          item: { id: entity.id, type: entity.type },
          name: full,
          previousName: entity.name,
        }),
      );
    }
    onDone();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onDone();
    }
  };

  return (
    <div className="details-rename">
      <Space.Compact block>
        <Input
          autoFocus
          aria-label="New name"
          value={name}
          status={error ? 'error' : undefined}
          suffix={entity.type === 'file' && entity.extension ? `.${entity.extension}` : undefined}
          onChange={(event) => {
            setName(event.target.value);
            setError(null);
          }}
          onPressEnter={save}
          onKeyDown={onKeyDown}
        />
        <Button type="primary" onClick={save}>
          Save
        </Button>
        <Button onClick={onDone}>Cancel</Button>
      </Space.Compact>
      {error ? (
        <div role="alert" className="details-rename-error">
          {error}
        </div>
      ) : notice ? (
        <div role="status" className="details-rename-note">
          {notice}
        </div>
      ) : null}
    </div>
  );
}

/** The folder's statistics (flag fileStats). */
function FolderStatsSection() {
  const dispatch = useAppDispatch();
  const { stats, target } = useAppSelector(selectDetails);
  if (stats.status === 'idle') return null;
  let body;
  if (stats.status === 'failed') {
    body = (
      <p role="alert" className="stats-error">
        {stats.error}{' '}
        {target ? (
          <Button size="small" onClick={() => dispatch(detailsActions.panelOpened(target))}>
            Try again
          </Button>
        ) : null}
      </p>
    );
  } else if (!stats.data) {
    body = (
      <span role="status">
        <Spin size="small" /> Loading statistics…
      </span>
    );
  } else {
    const data = stats.data;
    body = (
      <>
        <dl className="stats-totals">
          <div>
            <dt>Folders</dt>
            <dd>{data.folders}</dd>
          </div>
          <div>
            <dt>Files</dt>
            <dd>{data.files}</dd>
          </div>
          <div>
            <dt>Total size</dt>
            <dd>{formatSize(data.size)}</dd>
          </div>
        </dl>
        <StatsBreakdown byType={data.by_type} label="Files by type" />
      </>
    );
  }
  return (
    <section className="details-stats" aria-label="Folder statistics" data-testid="folder-stats">
      <h3 className="stats-title">Statistics</h3>
      {body}
    </section>
  );
}

/** The actions of a loaded item `entity`; `onRename` starts the inline rename. */
function ItemActions({ entity, onRename }: { entity: EntityDto; onRename: () => void }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const openInViewer = useOpenInViewer();
  const role = useAppSelector(selectCurrentRole);
  const readOnly = role === 'read_only';
  const ref: EntityRef = { id: entity.id, type: entity.type };
  const isFolder = entity.type === 'folder';
  return (
    <Space wrap className="details-actions" aria-label="Actions">
      {isFolder ? (
        <Button
          icon={<FolderOpenOutlined aria-hidden />}
          // The folder's address names no item, so the panel closes (detailsLink.ts).
          onClick={() => void navigate(folderPath(entity.id))}
        >
          Open
        </Button>
      ) : isViewable(entity.extension, entity.content_type ?? '') ? (
        <Button icon={<EyeOutlined aria-hidden />} onClick={() => openInViewer(entity.id)}>
          Preview
        </Button>
      ) : (
        <NoPreviewButton>Preview</NoPreviewButton>
      )}
      <Button
        icon={<DownloadOutlined aria-hidden />}
        href={downloadUrl(ref)}
        download={isFolder ? `${entity.name}.zip` : entity.name}
      >
        {isFolder ? 'Download zip' : 'Download'}
      </Button>
      <Button
        icon={entity.favorite ? <StarFilled aria-hidden /> : <StarOutlined aria-hidden />}
        aria-pressed={entity.favorite}
        onClick={() =>
          dispatch(organiseEvents.favoriteRequested({ item: ref, enabled: !entity.favorite }))
        }
      >
        {entity.favorite ? 'Remove from favorites' : 'Add to favorites'}
      </Button>
      <Button
        icon={<HistoryOutlined aria-hidden />}
        onClick={() =>
          dispatch(
            historyActions.itemPanelOpened({ type: entity.type, id: entity.id, name: entity.name }),
          )
        }
      >
        History
      </Button>
      {isFolder ? <FolderPermissionsButton folder={entity} /> : null}
      {isFolder ? <ExaminerExportButton folder={entity} /> : null}
      <ShareButton entity={entity} />
      {readOnly ? null : (
        <>
          <Button icon={<EditOutlined aria-hidden />} onClick={onRename}>
            Rename
          </Button>
          <Button
            icon={<SwapOutlined aria-hidden />}
            onClick={() => dispatch(organiseEvents.moveDialogOpened({ items: [ref] }))}
          >
            Move to…
          </Button>
          <Button
            danger
            icon={<DeleteOutlined aria-hidden />}
            onClick={() => dispatch(organiseEvents.archiveRequested({ items: [ref] }))}
          >
            Archive
          </Button>
        </>
      )}
    </Space>
  );
}

/** The details of a loaded item. */
function ItemDetails({ entity }: { entity: EntityDto }) {
  const { path, stats } = useAppSelector(selectDetails);
  const kind = useAppSelector(selectDetailsKind);
  const fileStats = useAppSelector((state) => selectFeatureFlag(state, 'fileStats'));
  const [renaming, setRenaming] = useState(false);
  const size =
    entity.type === 'file'
      ? formatSize(entity.size)
      : stats.data
        ? `${formatSize(stats.data.size)} (${stats.data.files} ${plural(stats.data.files, 'file')})`
        : null;
  return (
    <div className="details-item" data-testid="details-item">
      <div className="details-heading">
        <EntityIcon kind={kind} />
        {renaming ? (
          <RenameForm entity={entity} onDone={() => setRenaming(false)} />
        ) : (
          <h2 className="details-name">{entity.name}</h2>
        )}
      </div>
      <ItemActions entity={entity} onRename={() => setRenaming(true)} />
      <dl className="details-list">
        <dt>Type</dt>
        <dd>{typeText(entity)}</dd>
        {size !== null ? (
          <>
            <dt>Size</dt>
            <dd>{size}</dd>
          </>
        ) : null}
        <dt>Location</dt>
        <dd>
          <LocationPath path={path} />
        </dd>
        <dt>Created</dt>
        <dd>
          <time dateTime={entity.created_at}>{formatDate(entity.created_at)}</time>
        </dd>
        <dt>Updated</dt>
        <dd>
          <time dateTime={entity.updated_at}>{formatDate(entity.updated_at)}</time>
        </dd>
        <dt>Created by</dt>
        <dd>{entity.created_by_name || entity.created_by}</dd>
      </dl>
      <ProtectionSection item={{ type: entity.type, id: entity.id }} />
      {fileStats && entity.type === 'folder' ? <FolderStatsSection /> : null}
      <PreviewTextSection entity={entity} />
      {entity.type === 'file' ? <VersionsSection file={entity} /> : null}
      <AppliedIndexesSection entity={entity} />
      {entity.type === 'folder' ? <FolderContactsSection folder={entity} /> : null}
    </div>
  );
}

/** The panel; nothing is mounted while it is closed; closed, the focus returns to its opener. */
export function DetailsPanel() {
  const dispatch = useAppDispatch();
  const { target, entity, load } = useAppSelector(selectDetails);
  // The folder view mounts its own history panel; elsewhere this one serves the History action.
  const onFolderView = useMatch('/home/*') !== null;
  const historyDrawer = onFolderView ? null : <EntityHistoryDrawer />;
  // A desktop window shows the panel as a side pane beside the page; narrower ones as a drawer.
  const asPane = useMediaQuery(DETAILS_PANE_QUERY);
  // Closing gives the focus back to what opened the panel (a row menu's button, a Details button).
  useReturnFocus(target !== null);
  if (!target) return historyDrawer;

  const close = () => dispatch(detailsActions.panelClosed());
  const isRoot = target.id === ROOT_FOLDER_ID;
  let body;
  if (isRoot) {
    body = (
      <div className="details-item" data-testid="details-item">
        <div className="details-heading">
          <EntityIcon kind="folder" />
          <h2 className="details-name">{ROOT_PANEL_TITLE}</h2>
        </div>
        <dl className="details-list">
          <dt>Type</dt>
          <dd>Folder</dd>
        </dl>
        <FirmStatsCard load={false} />
      </div>
    );
  } else if (load.status === 'failed') {
    body = (
      <Result
        status="warning"
        title="This item could not be loaded."
        subTitle={load.error}
        extra={
          <Button onClick={() => dispatch(detailsActions.panelOpened(target))}>Try again</Button>
        }
      />
    );
  } else if (!entity) {
    body = (
      <div className="list-loading" role="status">
        <Spin description="Loading details…">
          <div className="list-loading-area" />
        </Spin>
      </div>
    );
  } else {
    body = <ItemDetails key={entity.id} entity={entity} />;
  }

  if (asPane) {
    return (
      <>
        <DetailsPane onClose={close}>{body}</DetailsPane>
        {historyDrawer}
      </>
    );
  }
  return (
    <>
      <Drawer
        open
        onClose={close}
        size={440}
        title="Details"
        className="details-panel"
        data-testid="details-panel"
      >
        {body}
      </Drawer>
      {historyDrawer}
    </>
  );
}
