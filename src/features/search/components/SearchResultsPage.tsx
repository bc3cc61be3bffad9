/**
 * /search: the filter bar (text, type categories, date presets, index field
 * values, favorites only, within a folder, archived, whether the text is also looked for in file
 * contents) and the results in a virtualised list with each item's path, loading the next page at
 * its end. A file found by its text shows the best page's snippet (the query's words marked) and
 * its page number, linking to the in-app viewer on that page (app/viewerLink.ts). The term and the
 * filters live in the URL (searchFilters.ts), so a reload or a shared link shows the same search.
 */
import { FilterOutlined, SearchOutlined } from '@ant-design/icons';
import { Alert, Button, Checkbox, Empty, Input, Select, Space, Spin, Tag } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { viewerSearch } from '@src/app/viewerLink';
import { fileKind } from '@common/files';
import { awaitsThumbnail } from '@common/imaging';
import { DATE_PRESETS, type DatePreset } from '@common/history';
import {
  SEARCH_MESSAGES,
  SEARCH_TYPES,
  isSearchableQuery,
  type SearchHitDto,
  type ContentMatchDto,
  type SearchMatch,
  type SearchType,
} from '@common/search';
import { plural } from '@common/text';
import { PageTitle } from '@src/components/PageTitle';
import { VirtualList } from '@src/components/VirtualList';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { folderRoute } from '@src/features/entities/components/FolderBreadcrumbs';
import { FileThumbnail } from '@src/features/imaging/components/FileThumbnail';
import { ListLayoutToggle } from '@src/features/imaging/components/ListLayoutToggle';
import { selectListLayout } from '@src/features/imaging/imagingSelectors';
import { IndexValueInput } from '@src/features/indexFields/components/ApplyIndexForm';
import { selectIndexFields } from '@src/features/indexFields/indexFieldsSelectors';
import { indexFieldsActions } from '@src/features/indexFields/indexFieldsSlice';
import { selectCurrentDatabaseId } from '@src/features/session/sessionSelectors';
import {
  filterItemKey,
  searchFromView,
  viewFromSearch,
  viewHasCriteria,
  withFilterItem,
  withoutFilterItem,
  type SearchFilterItem,
  type SearchView,
} from '../searchFilters';
import { selectSearchResults } from '../searchSelectors';
import { searchActions } from '../searchSlice';
import { hitRoute, pathCrumbName } from './SearchBox';
import './search.css';

/** The page's title. */
const SEARCH_TITLE = 'Search';
/** What the page says before anything is asked. */
const SEARCH_EMPTY_TEXT = 'Type in the search box or choose filters to find files and folders.';

const MATCH_LABELS: Record<SearchMatch, string> = {
  name: 'Name',
  index: 'Index value',
  contact: 'Contact',
  content: 'File text',
};

/** Label of the filter that also looks for the term in the text of files. */
const CONTENT_FILTER_LABEL = 'Also in file text';

const ALL_TIME = 'all';

/** The index-field value filter: a field, a value, and Add. */
function IndexValueFilter({ onAdd }: { onAdd: (fieldId: string, value: string) => void }) {
  const fields = useAppSelector(selectIndexFields);
  const [fieldId, setFieldId] = useState<string | null>(null);
  const [value, setValue] = useState('');
  const field = fields.items.find((item) => item.id === fieldId) ?? null;
  const add = () => {
    if (!field || value.trim() === '') return;
    onAdd(field.id, value.trim());
    setValue('');
  };
  return (
    <Space.Compact>
      <Select<string>
        aria-label="Index field"
        placeholder="Index field"
        value={fieldId ?? undefined}
        onChange={(next) => {
          setFieldId(next);
          setValue('');
        }}
        options={fields.items.map((item) => ({ value: item.id, label: item.name }))}
      />
      {field ? (
        <IndexValueInput
          field={field}
          value={value}
          ariaLabel={`${field.name} value`}
          onChange={setValue}
          onPressEnter={add}
        />
      ) : null}
      <Button disabled={!field || value.trim() === ''} onClick={add}>
        Add
      </Button>
    </Space.Compact>
  );
}

/** The filter bar of a view; every change produces a new view. */
function SearchFilterBar({
  view,
  onChange,
}: {
  view: SearchView;
  onChange: (view: SearchView) => void;
}) {
  const fields = useAppSelector(selectIndexFields);
  const [term, setTerm] = useState(view.term);
  useEffect(() => setTerm(view.term), [view.term]);
  const items = view.filterItems;
  const types = items.flatMap((item) => (item.kind === 'type' ? [item.category] : []));
  const date = items.find((item) => item.kind === 'date');
  const has = (kind: SearchFilterItem['kind']) => items.some((item) => item.kind === kind);
  const set = (filterItems: SearchFilterItem[]) => onChange({ ...view, filterItems });
  const toggle = (kind: 'favorites' | 'archived', on: boolean) =>
    set(on ? withFilterItem(items, { kind }) : items.filter((item) => item.kind !== kind));
  const fieldName = (id: string) => fields.items.find((item) => item.id === id)?.name ?? 'Index';

  return (
    <div className="search-filters" role="group" aria-label="Search filters">
      <Input.Search
        className="search-term"
        aria-label="Search text"
        placeholder="Text in names, index values, contacts, file text"
        value={term}
        enterButton={<SearchOutlined aria-label="Search" />}
        onChange={(event) => setTerm(event.target.value)}
        onSearch={(value) => onChange({ ...view, term: value.trim() })}
      />
      <Select<SearchType[]>
        mode="multiple"
        aria-label="Types"
        placeholder="Any type"
        value={types}
        onChange={(next) =>
          set([
            ...items.filter((item) => item.kind !== 'type'),
            ...next.map((category): SearchFilterItem => ({ kind: 'type', category })),
          ])
        }
        options={SEARCH_TYPES.map((value) => ({ value, label: value }))}
      />
      <Select<string>
        aria-label="Date"
        value={date?.kind === 'date' ? date.preset : ALL_TIME}
        onChange={(value) =>
          set(
            value === ALL_TIME
              ? items.filter((item) => item.kind !== 'date')
              : withFilterItem(items, { kind: 'date', preset: value as DatePreset }),
          )
        }
        options={[
          { value: ALL_TIME, label: 'Any date' },
          ...DATE_PRESETS.map((preset) => ({ value: preset, label: preset })),
        ]}
      />
      <IndexValueFilter
        onAdd={(fieldId, value) => set(withFilterItem(items, { kind: 'index', fieldId, value }))}
      />
      <Checkbox checked={has('favorites')} onChange={(e) => toggle('favorites', e.target.checked)}>
        Favorites only
      </Checkbox>
      <Checkbox checked={has('archived')} onChange={(e) => toggle('archived', e.target.checked)}>
        Archived
      </Checkbox>
      <Checkbox
        checked={!view.namesOnly}
        onChange={(e) => {
          const { namesOnly: _namesOnly, ...rest } = view;
          onChange(e.target.checked ? rest : { ...rest, namesOnly: true });
        }}
      >
        {CONTENT_FILTER_LABEL}
      </Checkbox>
      {items.map((item) => {
        if (item.kind !== 'index' && item.kind !== 'folder') return null;
        const label =
          item.kind === 'index'
            ? `${fieldName(item.fieldId)}: ${item.value}`
            : `In folder: ${item.name || 'folder'}`;
        const key = filterItemKey(item);
        return (
          <Tag
            key={key}
            icon={<FilterOutlined aria-hidden />}
            closable
            closeIcon={<span aria-label={`Remove filter ${label}`}>×</span>}
            onClose={(event) => {
              event.preventDefault();
              set(withoutFilterItem(items, key));
            }}
          >
            {label}
          </Tag>
        );
      })}
      {viewHasCriteria(view) ? (
        <Button type="link" onClick={() => onChange({ term: '', filterItems: [] })}>
          Clear all
        </Button>
      ) : null}
    </div>
  );
}

/**
 * Where a file's text matched: the snippet, the query's words in <mark> (the segments are text,
 * never HTML), and "Page N"; the whole is a link opening the viewer on that page.
 */
function ContentSnippet({
  name,
  content,
  search,
}: {
  name: string;
  content: ContentMatchDto;
  /** The query of the viewer link (viewerSearch). */
  search: string;
}) {
  return (
    <Link
      className="search-result-snippet"
      to={{ search: `?${search}` }}
      aria-label={`Open ${name} at page ${content.page}`}
    >
      <span className="search-result-snippet-text">
        {content.snippet.map((segment, index) =>
          segment.match ? <mark key={index}>{segment.text}</mark> : segment.text,
        )}
      </span>{' '}
      <span className="search-result-page">Page {content.page}</span>
    </Link>
  );
}

/** One result: icon, name (opens it), where it is (each folder a link), what matched. */
function ResultRow({
  hit,
  onOpen,
  onWithin,
  viewerLink,
}: {
  hit: SearchHitDto;
  onOpen: (hit: SearchHitDto) => void;
  onWithin: (hit: SearchHitDto) => void;
  /** The query of the link opening a file in the viewer on a page. */
  viewerLink: (fileId: string, page: number) => string;
}) {
  return (
    <div className="search-result" role="listitem" aria-label={hit.name}>
      <FileThumbnail
        id={hit.id}
        kind={fileKind(hit)}
        color={hit.type === 'folder' ? hit.color : null}
        thumbnail={hit.type === 'file' && hit.thumbnail}
        awaited={hit.type === 'file' && awaitsThumbnail(hit)}
      />
      <div className="search-result-text">
        <button type="button" className="search-result-name" onClick={() => onOpen(hit)}>
          {hit.name}
        </button>
        <nav className="search-result-path" aria-label={`Location of ${hit.name}`}>
          {hit.path.map((crumb, index) => (
            <span key={crumb.id || 'root'}>
              {index > 0 ? ' / ' : ''}
              <Link to={folderRoute(crumb.id)}>{pathCrumbName(crumb)}</Link>
            </span>
          ))}
        </nav>
        {hit.type === 'file' && hit.content ? (
          <ContentSnippet
            name={hit.name}
            content={hit.content}
            search={viewerLink(hit.id, hit.content.page)}
          />
        ) : null}
      </div>
      <span>
        {hit.matched_in.map((match) => (
          <Tag key={match}>{MATCH_LABELS[match]}</Tag>
        ))}
        {hit.archived_at ? <Tag>Archived</Tag> : null}
      </span>
      {hit.type === 'folder' ? (
        <Button size="small" type="link" onClick={() => onWithin(hit)}>
          Search in this folder
        </Button>
      ) : null}
    </div>
  );
}

const hitKey = (hit: SearchHitDto) => `${hit.type}:${hit.id}`;

/** The search results page with its filters. */
export function SearchResultsPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  // The view's own parameters only: opening the side panel or the viewer (their parameters) must
  // not read the results again.
  const viewKey = searchFromView(viewFromSearch(searchParams.toString()));
  const view = useMemo(() => viewFromSearch(viewKey), [viewKey]);
  const results = useAppSelector(selectSearchResults);
  const fieldsStatus = useAppSelector(selectIndexFields).status;
  const databaseId = useAppSelector(selectCurrentDatabaseId);
  const layout = useAppSelector(selectListLayout);

  useEffect(() => {
    dispatch(searchActions.resultsRequested(view));
  }, [dispatch, view, databaseId]);

  useEffect(() => {
    if (fieldsStatus === 'idle') dispatch(indexFieldsActions.fieldsRequested());
  }, [dispatch, fieldsStatus]);

  const change = useCallback(
    (next: SearchView) => setSearchParams(searchFromView(next)),
    [setSearchParams],
  );
  const onOpen = useCallback(
    (hit: SearchHitDto) => {
      void navigate(hitRoute(hit));
    },
    [navigate],
  );
  const onWithin = useCallback(
    (hit: SearchHitDto) =>
      change({
        ...view,
        filterItems: withFilterItem(view.filterItems, {
          kind: 'folder',
          folderId: hit.id,
          name: hit.name,
        }),
      }),
    [change, view],
  );
  const viewerLink = useCallback(
    (fileId: string, page: number) => viewerSearch(searchParams, fileId, page),
    [searchParams],
  );
  const renderHit = useCallback(
    (hit: SearchHitDto) => (
      <ResultRow hit={hit} onOpen={onOpen} onWithin={onWithin} viewerLink={viewerLink} />
    ),
    [onOpen, onWithin, viewerLink],
  );
  const onEndReached = useCallback(
    () => dispatch(searchActions.resultsMoreRequested()),
    [dispatch],
  );

  let body;
  if (!viewHasCriteria(view)) {
    body = <Empty description={SEARCH_EMPTY_TEXT} />;
  } else if (view.term !== '' && !isSearchableQuery(view.term)) {
    body = <Alert type="info" showIcon title={SEARCH_MESSAGES.queryTooShort} />;
  } else if (results.status === 'failed') {
    body = (
      <Alert
        type="error"
        role="alert"
        showIcon
        title={results.error ?? SEARCH_MESSAGES.searchFailed}
        action={
          <Button size="small" onClick={() => dispatch(searchActions.resultsRequested(view))}>
            Try again
          </Button>
        }
      />
    );
  } else if (results.status !== 'succeeded') {
    body = (
      <div className="list-loading" role="status">
        <Spin description="Searching…">
          <div className="list-loading-area" />
        </Spin>
      </div>
    );
  } else if (results.items.length === 0) {
    body = <Empty description={SEARCH_MESSAGES.noResults} />;
  } else {
    let footer = null;
    if (results.more.status === 'loading') footer = <Spin size="small" />;
    else if (results.more.status === 'failed') {
      footer = (
        <span role="alert">
          {results.more.error}{' '}
          <Button size="small" onClick={onEndReached}>
            Try again
          </Button>
        </span>
      );
    }
    body = (
      <div className="search-results">
        <VirtualList
          items={results.items}
          itemKey={hitKey}
          renderItem={renderHit}
          onEndReached={onEndReached}
          footer={footer}
          role="list"
          ariaLabel="Search results"
          layout={layout}
        />
      </div>
    );
  }

  return (
    <div className="page search-page">
      <PageTitle extra={<ListLayoutToggle />}>{SEARCH_TITLE}</PageTitle>
      <SearchFilterBar view={view} onChange={change} />
      {results.status === 'succeeded' && viewHasCriteria(view) ? (
        <p role="status" className="admin-muted">
          {results.total.toLocaleString('en-US')} {plural(results.total, 'result')}
        </p>
      ) : null}
      {body}
    </div>
  );
}
