/**
 * The search box in the header: an antd Input acting as an ARIA combobox whose
 * list shows the autocomplete answer for what is typed (each item's name and path; a file found
 * by its text says so after the path) and a last option "Show all results". Keyboard: ArrowDown/ArrowUp move through the options, Enter opens the
 * active one (a folder opens; a file opens its folder with the side panel on it) or, with no
 * active option, the results page /search?q=…; Escape closes the list, then clears the box.
 */
import { SearchOutlined } from '@ant-design/icons';
import { Input, Spin } from 'antd';
import { useId, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { ROOT_FOLDER_ID } from '@common/constants';
import { fileKind } from '@common/files';
import {
  isSearchableQuery,
  SEARCH_MAX_QUERY_LENGTH,
  type AutocompleteHitDto,
  type SearchHitDto,
} from '@common/search';
import { EntityIcon } from '@src/components/EntityIcon';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { DETAILS_PARAM, formatDetailsParam } from '@src/features/details/detailsLink';
import { HOME_NAME } from '@src/features/collections/components/cells';
import { folderRoute } from '@src/features/entities/components/FolderBreadcrumbs';
import { searchPath } from '../searchFilters';
import { selectAutocomplete, selectSearching, selectSearchQuery } from '../searchSelectors';
import { searchActions } from '../searchSlice';
import './search.css';

/**
 * The name of one step of a hit's path: the root (id '') reads "Home", as in the navigation, the
 * breadcrumbs and the other lists' locations; the server names it "Root" (SPEC section 2).
 */
export function pathCrumbName(crumb: { id: string; name: string }): string {
  return crumb.id === ROOT_FOLDER_ID ? HOME_NAME : crumb.name;
}

/** The id of the header search's input (the `/` key focuses it). */
export const SEARCH_INPUT_ID = 'header-search';

/** "Home / Clients / 2024": where a hit is. */
function hitPathText(hit: Pick<SearchHitDto, 'path'>): string {
  return hit.path.map(pathCrumbName).join(' / ');
}

/**
 * Where opening a hit goes: a folder's own page, or a file's folder with the side panel on the
 * file (`?details=file:<id>`, which opens it; see detailsLink.ts).
 */
export function hitRoute(hit: AutocompleteHitDto | SearchHitDto): string {
  if (hit.type === 'folder') return folderRoute(hit.id);
  const details = new URLSearchParams({
    [DETAILS_PARAM]: formatDetailsParam({ id: hit.id, type: 'file' }) ?? '',
  });
  const folderId = 'folder_id' in hit ? hit.folder_id : hit.parent_id;
  return `${folderRoute(folderId)}?${details.toString()}`;
}

/** What a hit found by its file's text says after its path. */
const FOUND_IN_TEXT = 'found in the text';

/** The search box in the header with its autocomplete. */
export function SearchBox() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const query = useAppSelector(selectSearchQuery);
  const searching = useAppSelector(selectSearching);
  const autocomplete = useAppSelector(selectAutocomplete);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listId = useId();

  const searchable = isSearchableQuery(query);
  const items = searchable ? autocomplete.items : [];
  // The options: the hits, then "Show all results".
  const optionCount = searchable ? items.length + 1 : 0;
  const showList = open && searchable;
  const optionId = (index: number) => `${listId}-option-${index}`;

  const close = () => {
    setOpen(false);
    setActive(-1);
  };

  const openHit = (hit: AutocompleteHitDto) => {
    void navigate(hitRoute(hit));
    close();
    dispatch(searchActions.queryCleared());
  };

  const showAll = () => {
    if (!searchable) return;
    void navigate(searchPath({ term: query.trim(), filterItems: [] }));
    close();
  };

  const choose = (index: number) => {
    const hit = items[index];
    if (hit) openHit(hit);
    else showAll();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        setOpen(true);
        if (optionCount > 0) setActive((current) => (current + 1) % optionCount);
        break;
      case 'ArrowUp':
        event.preventDefault();
        setOpen(true);
        if (optionCount > 0) {
          setActive((current) => (current <= 0 ? optionCount - 1 : current - 1));
        }
        break;
      case 'Enter':
        event.preventDefault();
        if (showList && active >= 0) choose(active);
        else showAll();
        break;
      case 'Escape':
        if (showList) close();
        else dispatch(searchActions.queryCleared());
        break;
      default:
        break;
    }
  };

  let status = null;
  if (searching) {
    status = (
      <li className="search-box-status" role="presentation">
        <Spin size="small" /> Searching…
      </li>
    );
  } else if (autocomplete.status === 'failed') {
    status = (
      <li className="search-box-status search-box-error" role="presentation">
        {autocomplete.error}
      </li>
    );
  } else if (autocomplete.status === 'succeeded' && items.length === 0) {
    status = (
      <li className="search-box-status" role="presentation">
        No matches.
      </li>
    );
  }

  return (
    <div className="search-box">
      <Input
        id={SEARCH_INPUT_ID}
        role="combobox"
        aria-label="Search"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={showList && active >= 0 ? optionId(active) : undefined}
        placeholder="Search files, folders, index values, contacts"
        prefix={<SearchOutlined aria-hidden />}
        allowClear
        maxLength={SEARCH_MAX_QUERY_LENGTH}
        value={query}
        onChange={(event) => {
          dispatch(searchActions.queryChanged(event.target.value));
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={close}
        onKeyDown={onKeyDown}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="Search suggestions"
        className="search-box-list"
        hidden={!showList}
      >
        {showList ? (
          <>
            {status}
            {items.map((hit, index) => (
              <li
                key={hit.id}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                className={index === active ? 'search-box-option active' : 'search-box-option'}
                onMouseDown={(event) => event.preventDefault()}
                onMouseEnter={() => setActive(index)}
                onClick={() => openHit(hit)}
              >
                <EntityIcon kind={fileKind(hit)} />
                <span className="search-box-text">
                  <span className="search-box-name">{hit.name}</span>
                  <span className="search-box-path">
                    {hitPathText(hit)}
                    {hit.matched_in.includes('content') ? ` · ${FOUND_IN_TEXT}` : ''}
                  </span>
                </span>
              </li>
            ))}
            <li
              id={optionId(items.length)}
              role="option"
              aria-selected={active === items.length}
              className={
                active === items.length
                  ? 'search-box-option search-box-all active'
                  : 'search-box-option search-box-all'
              }
              onMouseDown={(event) => event.preventDefault()}
              onMouseEnter={() => setActive(items.length)}
              onClick={showAll}
            >
              Show all results for “{query.trim()}”
            </li>
          </>
        ) : null}
      </ul>
    </div>
  );
}
