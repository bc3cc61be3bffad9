/**
 * A column header of the folder list that sorts it: one button per sort column it shows (the Name
 * header also sorts by type). A click sorts by that column, a second click turns it around; the
 * sort goes into the address (`?sort=&order=`, so a reload keeps it) and is remembered for the
 * user (`entities/sortChosen`). The header carries `aria-sort`.
 */
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router';
import { nextFolderSort, type FolderSortKey } from '@common/sort';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectAriaSort, selectFolderSort } from '../entitiesSelectors';
import { entitiesActions } from '../entitiesSlice';
import './sortableHeader.css';

/** One sort button of a header: the column and its visible label. */
export interface SortColumn {
  column: FolderSortKey;
  label: string;
}

/** Props of {@link SortableHeader}. */
export interface SortableHeaderProps {
  columns: readonly SortColumn[];
  /** The header cell's classes (its column's width and alignment). */
  className: string;
}

/** The column header with its sort buttons. */
export function SortableHeader({ columns, className }: SortableHeaderProps) {
  const dispatch = useAppDispatch();
  const [, setSearch] = useSearchParams();
  const current = useAppSelector(selectFolderSort);
  const ariaSort = useAppSelector((state) =>
    selectAriaSort(
      state,
      columns.map((c) => c.column),
    ),
  );
  const choose = (column: FolderSortKey) => {
    const sort = nextFolderSort(current, column);
    dispatch(entitiesActions.sortChosen({ sort }));
    setSearch((previous) => {
      const next = new URLSearchParams(previous);
      next.set('sort', sort.sort);
      next.set('order', sort.order);
      return next;
    });
  };
  return (
    <div role="columnheader" className={className} aria-sort={ariaSort}>
      {columns.map(({ column, label }) => {
        const active = current.sort === column;
        const Arrow = current.order === 'asc' ? ArrowUpOutlined : ArrowDownOutlined;
        return (
          <button
            key={column}
            type="button"
            className={`sort-header-button${active ? ' sort-header-active' : ''}`}
            onClick={() => choose(column)}
          >
            {label}
            {active ? (
              <>
                <Arrow aria-hidden className="sort-header-arrow" />
                <span className="visually-hidden">
                  {current.order === 'asc' ? ' (sorted ascending)' : ' (sorted descending)'}
                </span>
              </>
            ) : null}
          </button>
        );
      })}
    </div>
  );
}
