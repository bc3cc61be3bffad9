/** Cells shared by the collection lists: the header row, the item's name and where it is. */
import { InfoCircleOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { detailsActions } from '@src/features/details/detailsSlice';
import { FileNameLink } from '@src/features/entities/components/FileNameLink';
import { FileThumbnail } from '@src/features/imaging/components/FileThumbnail';
import { selectFolderPath, type CollectionRow } from '../collectionsSelectors';
import { collectionsActions } from '../collectionsSlice';

/** The route of a folder in the folder view ('' is the root: /home). */
export function folderRoute(folderId: string): string {
  return folderId ? `/home/folders/${encodeURIComponent(folderId)}` : '/home';
}

/** The name of the root in "where" cells. */
export const HOME_NAME = 'Home';

/**
 * Thumbnail (or icon) and name of `row`. `link`: a folder's name opens it in the folder view, a file's name opens
 * its preview in a new tab, or downloads it when it has no preview (see {@link FileNameLink});
 * without it the name is plain text (archived items).
 */
export function NameCell({ row, link = true }: { row: CollectionRow; link?: boolean }) {
  let name;
  if (!link) name = <span className="entity-name">{row.name}</span>;
  else if (row.type === 'folder') {
    name = (
      <Link className="entity-name" to={folderRoute(row.id)}>
        {row.name}
      </Link>
    );
  } else {
    name = <FileNameLink file={row} />;
  }
  return (
    <div role="cell" className="entity-cell entity-cell-name">
      <FileThumbnail
        id={row.id}
        kind={row.kind}
        color={row.color}
        thumbnail={row.thumbnail}
        awaited={row.thumbnailAwaited}
      />
      {name}
    </div>
  );
}

/**
 * Where the item is: "Home" for the root, else the parent folder's path (read once per folder
 * through its breadcrumbs), as a link to that folder. Archived items show the path the server
 * recorded, as text (their folder may be archived too).
 */
export function WhereCell({ row }: { row: CollectionRow }) {
  const dispatch = useAppDispatch();
  const { parentId, parentPath } = row;
  const known = useAppSelector((state) => selectFolderPath(state, parentId));
  const needsPath = parentPath === null && parentId !== '' && known === undefined;
  useEffect(() => {
    if (needsPath) dispatch(collectionsActions.folderPathNeeded({ folderId: parentId }));
  }, [dispatch, needsPath, parentId]);

  let content;
  if (parentPath !== null) {
    const text = parentPath ? `${HOME_NAME} / ${parentPath}` : HOME_NAME;
    content = <span title={text}>{text}</span>;
  } else if (parentId === '') {
    content = <Link to="/home">{HOME_NAME}</Link>;
  } else {
    const text =
      known?.status === 'succeeded'
        ? [HOME_NAME, ...known.names].join(' / ')
        : known?.status === 'failed'
          ? 'Folder'
          : '…';
    content = (
      <Link to={folderRoute(parentId)} title={text}>
        {text}
      </Link>
    );
  }
  return (
    <div role="cell" className="entity-cell collection-cell-where">
      {content}
    </div>
  );
}

/** The "Details" action: opens the entity side panel for the row's item. */
export function DetailsButton({ row }: { row: CollectionRow }) {
  const dispatch = useAppDispatch();
  return (
    <Button
      type="text"
      size="small"
      icon={<InfoCircleOutlined aria-hidden />}
      title="Details"
      aria-label={`Details of ${row.name}`}
      onClick={() => dispatch(detailsActions.panelOpened({ id: row.id, type: row.type }))}
    />
  );
}

/**
 * The header row's cells of a collection list (CollectionList's `header`), in the order of the
 * rows' cells: the first column when `check` is given, then name, where, date, `detail`, actions.
 */
export function CollectionHeader({
  check,
  where,
  date,
  detail,
}: {
  /** The heading of the first column (the star's, the select-all's); without it, no such column. */
  check?: ReactNode;
  /** The heading of where the item is. */
  where: string;
  /** The heading of the row's date. */
  date: string;
  /** The column before the actions: the item's size, or what was done to it (Recent). */
  detail: 'size' | 'what';
}) {
  return (
    <>
      {check === undefined ? null : (
        <div role="columnheader" className="entity-cell collection-cell-check">
          {check}
        </div>
      )}
      <div role="columnheader" className="entity-cell entity-cell-name">
        Name
      </div>
      <div role="columnheader" className="entity-cell collection-cell-where">
        {where}
      </div>
      <div role="columnheader" className="entity-cell entity-cell-date">
        {date}
      </div>
      {detail === 'size' ? (
        <div role="columnheader" className="entity-cell entity-cell-size">
          Size
        </div>
      ) : (
        <div role="columnheader" className="entity-cell collection-cell-what">
          What
        </div>
      )}
      <div role="columnheader" className="entity-cell entity-cell-actions">
        <span className="visually-hidden">Actions</span>
      </div>
    </>
  );
}
