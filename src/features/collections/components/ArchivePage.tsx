/**
 * The Archive page (/archive): the items archived themselves, newest archive first,
 * each with Restore and Delete permanently (after a confirmation); rows can be selected (a
 * Shift-click selects a range, the header box all loaded rows) for a bulk restore or permanent
 * delete. The organise saga performs the actions; the list updates itself on
 * `organise/itemsChanged`.
 */
import { DeleteOutlined, UndoOutlined } from '@ant-design/icons';
import { App, Button, Checkbox, Space } from 'antd';
import { memo, useCallback, useEffect } from 'react';
import { plural } from '@common/text';
import type { EntityRef } from '@common/entities';
import { PageTitle } from '@src/components/PageTitle';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { organiseEvents } from '@src/features/organise/organiseEvents';
import { selectCurrentDatabaseId, selectCurrentRole } from '@src/features/session/sessionSelectors';
import {
  selectArchive,
  selectArchiveRows,
  selectArchiveSelection,
  selectPendingIds,
  selectSelectedArchiveRefs,
  type ArchiveRow,
} from '../collectionsSelectors';
import { collectionsActions } from '../collectionsSlice';
import { CollectionList } from './CollectionList';
import { CollectionHeader, NameCell, WhereCell } from './cells';

/** Text of the empty Archive. */
export const EMPTY_ARCHIVE_TEXT = 'Nothing is archived. Archived folders and files appear here.';

/** Title of the permanent-delete confirmation. */
function destroyConfirmTitle(count: number, name?: string): string {
  return count === 1 && name
    ? `Delete “${name}” permanently?`
    : `Delete ${count} ${plural(count, 'item')} permanently?`;
}

/** Body of the permanent-delete confirmation. */
const DESTROY_CONFIRM_TEXT =
  'The items and everything inside them are removed for good, with their files. This cannot be undone.';

/** Asks before a permanent delete, then dispatches it. */
function useConfirmDestroy() {
  const { modal } = App.useApp();
  const dispatch = useAppDispatch();
  return useCallback(
    (items: EntityRef[], name?: string) => {
      void modal.confirm({
        title: destroyConfirmTitle(items.length, name),
        content: DESTROY_CONFIRM_TEXT,
        okText: 'Delete permanently',
        okButtonProps: { danger: true },
        cancelText: 'Cancel',
        onOk: () => {
          dispatch(organiseEvents.destroyRequested({ items }));
        },
      });
    },
    [modal, dispatch],
  );
}

/** One archived item. */
const ArchiveRowView = memo(function ArchiveRowView({
  row,
  index,
  selected,
  pending,
  readOnly,
  onDestroy,
}: {
  row: ArchiveRow;
  index: number;
  selected: boolean;
  pending: boolean;
  readOnly: boolean;
  onDestroy: (items: EntityRef[], name?: string) => void;
}) {
  const dispatch = useAppDispatch();
  const ref: EntityRef = { id: row.id, type: row.type };
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      className={`collection-row${selected ? ' collection-row-selected' : ''}`}
      data-testid="archive-row"
      data-entity-id={row.id}
    >
      <div role="cell" className="entity-cell collection-cell-check">
        <Checkbox
          checked={selected}
          aria-label={`Select ${row.name}`}
          onChange={(event) =>
            dispatch(
              event.nativeEvent.shiftKey
                ? collectionsActions.rangeSelected({ id: row.id })
                : collectionsActions.selectionToggled({ id: row.id }),
            )
          }
        />
      </div>
      <NameCell row={row} link={false} />
      <WhereCell row={row} />
      <div role="cell" className="entity-cell entity-cell-date">
        <time dateTime={row.archivedAt}>{row.archivedText}</time>
      </div>
      <div role="cell" className="entity-cell entity-cell-size">
        {row.sizeText}
      </div>
      <div role="cell" className="entity-cell entity-cell-actions">
        {readOnly ? null : (
          <>
            <Button
              size="small"
              icon={<UndoOutlined aria-hidden />}
              loading={pending}
              aria-label={`Restore ${row.name}`}
              onClick={() => dispatch(organiseEvents.restoreRequested({ items: [ref] }))}
            >
              Restore
            </Button>
            <Button
              size="small"
              danger
              disabled={pending}
              icon={<DeleteOutlined aria-hidden />}
              aria-label={`Delete ${row.name} permanently`}
              onClick={() => onDestroy([ref], row.name)}
            >
              Delete
            </Button>
          </>
        )}
      </div>
    </div>
  );
});

/** The bulk actions of the selected rows. */
function ArchiveToolbar({ onDestroy }: { onDestroy: (items: EntityRef[]) => void }) {
  const dispatch = useAppDispatch();
  const refs = useAppSelector(selectSelectedArchiveRefs);
  if (refs.length === 0) return null;
  return (
    <Space wrap aria-label="Selected items" role="toolbar">
      <span className="collection-selection-count">
        {refs.length} {plural(refs.length, 'item')} selected
      </span>
      <Button
        icon={<UndoOutlined aria-hidden />}
        onClick={() => dispatch(organiseEvents.restoreRequested({ items: refs }))}
      >
        Restore selected
      </Button>
      <Button danger icon={<DeleteOutlined aria-hidden />} onClick={() => onDestroy(refs)}>
        Delete selected permanently
      </Button>
      <Button type="text" onClick={() => dispatch(collectionsActions.selectionCleared())}>
        Clear selection
      </Button>
    </Space>
  );
}

/** The page: opens the list (again when the firm database changes). */
export function ArchivePage() {
  const dispatch = useAppDispatch();
  const databaseId = useAppSelector(selectCurrentDatabaseId);
  const rows = useAppSelector(selectArchiveRows);
  const list = useAppSelector(selectArchive);
  const selection = useAppSelector(selectArchiveSelection);
  const pending = useAppSelector(selectPendingIds);
  const readOnly = useAppSelector(selectCurrentRole) === 'read_only';
  const confirmDestroy = useConfirmDestroy();

  useEffect(() => {
    dispatch(collectionsActions.opened({ kind: 'archive' }));
  }, [dispatch, databaseId]);

  const selectedSet = new Set(selection);
  const pendingSet = new Set(pending);
  const allSelected = rows.length > 0 && rows.every((row) => selectedSet.has(row.id));
  const someSelected = selection.length > 0 && !allSelected;

  const renderRow = (row: ArchiveRow, index: number) => (
    <ArchiveRowView
      row={row}
      index={index}
      selected={selectedSet.has(row.id)}
      pending={pendingSet.has(row.id)}
      readOnly={readOnly}
      onDestroy={confirmDestroy}
    />
  );

  const header = (
    <CollectionHeader
      check={
        <Checkbox
          checked={allSelected}
          indeterminate={someSelected}
          aria-label="Select all"
          disabled={rows.length === 0}
          onChange={() =>
            dispatch(
              allSelected
                ? collectionsActions.selectionCleared()
                : collectionsActions.allSelected(),
            )
          }
        />
      }
      where="Archived from"
      date="Archived"
      detail="size"
    />
  );

  return (
    <div className="page collection-page">
      <PageTitle
        extra={readOnly ? null : <ArchiveToolbar onDestroy={(items) => confirmDestroy(items)} />}
      >
        Archive
      </PageTitle>
      {list.list.status === 'succeeded' && list.total > 0 ? (
        <p className="collection-summary">
          {list.total} archived {plural(list.total, 'item')}
        </p>
      ) : null}
      <CollectionList
        kind="archive"
        rows={rows}
        renderRow={renderRow}
        header={header}
        label="Archived items"
        emptyText={EMPTY_ARCHIVE_TEXT}
        noun="The archive"
      />
    </div>
  );
}
