/**
 * The Favorites page (/favorites): the current user's favorite folders and files,
 * newest favorite first. The star removes a favorite; a folder's name opens it in the folder view,
 * a file's name opens its preview (or downloads a file without one); Details opens the side panel.
 */
import { StarFilled } from '@ant-design/icons';
import { Button } from 'antd';
import { memo, useEffect } from 'react';
import { plural } from '@common/text';
import { PageTitle } from '@src/components/PageTitle';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { organiseEvents } from '@src/features/organise/organiseEvents';
import { selectCurrentDatabaseId } from '@src/features/session/sessionSelectors';
import {
  selectFavoriteRows,
  selectFavorites,
  selectPendingIds,
  type FavoriteRow,
} from '../collectionsSelectors';
import { collectionsActions } from '../collectionsSlice';
import { CollectionList } from './CollectionList';
import { CollectionHeader, DetailsButton, NameCell, WhereCell } from './cells';

/** Text of the empty Favorites. */
export const EMPTY_FAVORITES_TEXT =
  'No favorites yet. Use the star of a folder or file to find it here.';

/** One favorite. */
const FavoriteRowView = memo(function FavoriteRowView({
  row,
  index,
  pending,
}: {
  row: FavoriteRow;
  index: number;
  pending: boolean;
}) {
  const dispatch = useAppDispatch();
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      className="collection-row"
      data-testid="favorite-row"
      data-entity-id={row.id}
    >
      <div role="cell" className="entity-cell collection-cell-check">
        <Button
          type="text"
          size="small"
          className="favorite-star"
          icon={<StarFilled aria-hidden />}
          aria-pressed
          disabled={pending}
          aria-label={`Remove ${row.name} from favorites`}
          title="Remove from favorites"
          onClick={() =>
            dispatch(
              organiseEvents.favoriteRequested({
                item: { id: row.id, type: row.type },
                enabled: false,
              }),
            )
          }
        />
      </div>
      <NameCell row={row} />
      <WhereCell row={row} />
      <div role="cell" className="entity-cell entity-cell-date">
        <time dateTime={row.updatedAt}>{row.dateText}</time>
      </div>
      <div role="cell" className="entity-cell entity-cell-size">
        {row.sizeText}
      </div>
      <div role="cell" className="entity-cell entity-cell-actions">
        <DetailsButton row={row} />
      </div>
    </div>
  );
});

/** The page: opens the list (again when the firm database changes). */
export function FavoritesPage() {
  const dispatch = useAppDispatch();
  const databaseId = useAppSelector(selectCurrentDatabaseId);
  const rows = useAppSelector(selectFavoriteRows);
  const list = useAppSelector(selectFavorites);
  const pending = useAppSelector(selectPendingIds);

  useEffect(() => {
    dispatch(collectionsActions.opened({ kind: 'favorites' }));
  }, [dispatch, databaseId]);

  const pendingSet = new Set(pending);
  const renderRow = (row: FavoriteRow, index: number) => (
    <FavoriteRowView row={row} index={index} pending={pendingSet.has(row.id)} />
  );
  const header = (
    <CollectionHeader
      check={<span className="visually-hidden">Favorite</span>}
      where="Location"
      date="Modified"
      detail="size"
    />
  );

  return (
    <div className="page collection-page">
      <PageTitle>Favorites</PageTitle>
      {list.list.status === 'succeeded' && list.total > 0 ? (
        <p className="collection-summary">
          {list.total} {plural(list.total, 'favorite')}
        </p>
      ) : null}
      <CollectionList
        kind="favorites"
        rows={rows}
        findItem={(id) => rows.find((row) => row.id === id)}
        renderRow={renderRow}
        header={header}
        label="Favorites"
        emptyText={EMPTY_FAVORITES_TEXT}
        noun="Favorites"
      />
    </div>
  );
}
