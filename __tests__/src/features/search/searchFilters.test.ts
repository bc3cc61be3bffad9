import { describe, expect, it } from '@jest/globals';
import { datePresetRange } from '@common/history';
import {
  filtersForView,
  searchFromView,
  searchPath,
  viewFromSearch,
  viewIsSearchable,
  withFilterItem,
  type SearchView,
} from '@src/features/search/searchFilters';
import { initialSearchState, searchReducer, searchActions } from '@src/features/search/searchSlice';
import { fileHit, fileSuggestion } from './searchFixtures';

const view: SearchView = {
  term: 'tax return',
  filterItems: [
    { kind: 'type', category: 'PDF' },
    { kind: 'type', category: 'Folder' },
    { kind: 'date', preset: 'This year' },
    { kind: 'index', fieldId: 'f-tax', value: '2023' },
    { kind: 'favorites' },
    { kind: 'folder', folderId: 'f1', name: 'Clients' },
    { kind: 'archived' },
  ],
};

describe('search filters and the URL', () => {
  it('round-trips a view through the URL query', () => {
    const search = searchFromView(view);
    expect(search).toContain('q=tax+return');
    expect(viewFromSearch(`?${search}`)).toEqual(view);
    expect(searchPath({ term: 'abc', filterItems: [] })).toBe('/search?q=abc');
  });

  it('keeps the names-only choice as content=0 and sends it only with a term', () => {
    const namesOnly: SearchView = { term: 'deed', filterItems: [], namesOnly: true };
    expect(searchFromView(namesOnly)).toBe('q=deed&content=0');
    expect(viewFromSearch('?q=deed&content=0')).toEqual(namesOnly);
    // Anything else means "also in content", the default, which the URL does not spell out.
    expect(viewFromSearch('?q=deed&content=1')).toEqual({ term: 'deed', filterItems: [] });
    expect(filtersForView(namesOnly, new Date())).toEqual({ query: 'deed', content: false });
    expect(filtersForView({ term: 'deed', filterItems: [] }, new Date())).toEqual({
      query: 'deed',
    });
    expect(
      filtersForView(
        { term: '', filterItems: [{ kind: 'favorites' }], namesOnly: true },
        new Date(),
      ),
    ).toEqual({ favorites_only: true });
    // The viewer's and the side panel's parameters are not part of the view.
    expect(viewFromSearch('?q=deed&view=file%3Ad1&page=3&details=file%3Ad1')).toEqual({
      term: 'deed',
      filterItems: [],
    });
  });

  it('ignores unknown types, presets and malformed index values', () => {
    expect(viewFromSearch('q=x&type=Nope&date=Someday&index=novalue&index=:x&favorites=0')).toEqual(
      {
        term: 'x',
        filterItems: [],
      },
    );
  });

  it('keeps one date preset and one folder', () => {
    const items = withFilterItem(
      withFilterItem([{ kind: 'date', preset: 'Today' }], { kind: 'date', preset: 'This week' }),
      { kind: 'date', preset: 'This week' },
    );
    expect(items).toEqual([{ kind: 'date', preset: 'This week' }]);
  });

  it('builds the request filters with the date preset resolved', () => {
    const now = new Date('2024-05-10T12:00:00Z');
    const range = datePresetRange('This year', now);
    expect(filtersForView(view, now)).toEqual({
      query: 'tax return',
      types: ['PDF', 'Folder'],
      index_values: [{ index_field_id: 'f-tax', value: '2023' }],
      date_from: range.start,
      date_to: range.end,
      favorites_only: true,
      folder_id: 'f1',
      archived: true,
    });
  });

  it('does not send a term shorter than the minimum', () => {
    expect(viewIsSearchable({ term: 'a', filterItems: [] })).toBe(false);
    expect(viewIsSearchable({ term: '', filterItems: [{ kind: 'favorites' }] })).toBe(true);
    expect(viewIsSearchable({ term: '', filterItems: [] })).toBe(false);
  });
});

describe('search slice', () => {
  it('keeps the spec state: query, searching flag, term and filter items', () => {
    let state = searchReducer(initialSearchState, searchActions.queryChanged('inv'));
    expect(state).toMatchObject({ query: 'inv', searching: true });
    state = searchReducer(state, searchActions.resultsRequested(view));
    expect(state.term).toBe('tax return');
    expect(state.filterItems).toEqual(view.filterItems);
    expect(state.results.status).toBe('loading');
  });

  it('drops an autocomplete answer to another query than the current one', () => {
    let state = searchReducer(initialSearchState, searchActions.queryChanged('invoice'));
    state = searchReducer(
      state,
      searchActions.autocompleteLoaded({ query: 'inv', items: [fileSuggestion('a', 'a.pdf')] }),
    );
    expect(state.autocomplete.items).toEqual([]);
    expect(state.searching).toBe(true);
    state = searchReducer(
      state,
      searchActions.autocompleteLoaded({ query: 'invoice', items: [fileSuggestion('b', 'b.pdf')] }),
    );
    expect(state.autocomplete.items.map((item) => item.id)).toEqual(['b']);
    expect(state.searching).toBe(false);
  });

  it('ignores a results page that is not the next one', () => {
    let state = searchReducer(initialSearchState, searchActions.resultsRequested(view));
    state = searchReducer(
      state,
      searchActions.resultsLoaded({ page: 2, total: 5, items: [fileHit('x', 'x.pdf')] }),
    );
    expect(state.results.items).toEqual([]);
    expect(state.results.status).toBe('loading');
  });
});
