/** One row of the folder list: icon, name, size, date and the file actions. */
import { DownloadOutlined, EyeOutlined, HistoryOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { memo, type KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { EntityIcon } from '../../../components/EntityIcon';
import { useAppDispatch } from '../../../store/hooks';
import { historyActions } from '../../history/historySlice';
import { fileUrl } from '../entitiesApi';
import type { EntityRow } from '../entitiesSelectors';
import { folderRoute } from './FolderBreadcrumbs';

/** Props of {@link EntityRowView}. */
export interface EntityRowViewProps {
  row: EntityRow;
  /** Position in the list, from 0. */
  index: number;
}

/**
 * A focusable row (role "row"): Enter opens a folder, or a file's preview in a new tab. A folder's
 * name links to its route; a file's name opens the preview in a new tab; files have Download and
 * Preview actions; every row has a History action that opens the item's history in the side panel.
 */
export const EntityRowView = memo(function EntityRowView({ row, index }: EntityRowViewProps) {
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const isFolder = row.type === 'folder';
  const previewUrl = isFolder ? '' : fileUrl(row.id, 'preview');

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Enter' || event.target !== event.currentTarget) return;
    event.preventDefault();
    if (isFolder) void navigate(folderRoute(row.id));
    else window.open(previewUrl, '_blank', 'noopener,noreferrer');
  };

  return (
    <div
      role="row"
      tabIndex={0}
      aria-rowindex={index + 2}
      className="entity-row"
      data-testid="entity-row"
      data-entity-id={row.id}
      onKeyDown={onKeyDown}
    >
      <div role="cell" className="entity-cell entity-cell-name">
        <EntityIcon kind={row.kind} />
        {isFolder ? (
          <Link className="entity-name" to={folderRoute(row.id)} tabIndex={-1}>
            {row.name}
          </Link>
        ) : (
          <a
            className="entity-name"
            href={previewUrl}
            target="_blank"
            rel="noopener noreferrer"
            tabIndex={-1}
          >
            {row.name}
          </a>
        )}
      </div>
      <div role="cell" className="entity-cell entity-cell-size">
        {row.sizeText}
      </div>
      <div role="cell" className="entity-cell entity-cell-date">
        <time dateTime={row.date}>{row.dateText}</time>
      </div>
      <div role="cell" className="entity-cell entity-cell-actions">
        {isFolder ? null : (
          <>
            <Tooltip title="Download">
              <Button
                type="text"
                size="small"
                icon={<DownloadOutlined aria-hidden />}
                href={fileUrl(row.id, 'download')}
                download={row.name}
                aria-label={`Download ${row.name}`}
              />
            </Tooltip>
            <Tooltip title="Preview">
              <Button
                type="text"
                size="small"
                icon={<EyeOutlined aria-hidden />}
                href={previewUrl}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={`Preview ${row.name}`}
              />
            </Tooltip>
          </>
        )}
        <Button
          type="text"
          size="small"
          icon={<HistoryOutlined aria-hidden />}
          title="History"
          aria-label={`History of ${row.name}`}
          onClick={() =>
            dispatch(historyActions.itemPanelOpened({ type: row.type, id: row.id, name: row.name }))
          }
        />
      </div>
    </div>
  );
});
