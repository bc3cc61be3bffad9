/**
 * The search slice: the search panel state of SPEC section 2 — the query typed in
 * the header box, the searching flag, the search term of the results page and its filter items —
 * with the autocomplete answer for the query and the pages of results for the term and filters.
 *
 * Autocomplete answers are kept only when they answer the current query: the saga debounces and
 * drops older queries with takeLatest, and `autocompleteLoaded` for any other query is ignored, so
 * a slow answer to an older query can never replace the newer one.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import {
  isSearchableQuery,
  normalizeSearchQuery,
  type AutocompleteHitDto,
  type SearchHitDto,
} from '@common/search';
import type { Status } from '@src/store/status';
import { sessionActions } from '../session/sessionSlice';
import { viewIsSearchable, type SearchFilterItem, type SearchView } from './searchFilters';

/** Status and error of one request. */
export interface SearchRequestState {
  status: Status;
  error: string | null;
}

/** The autocomplete list under the header box. */
export interface AutocompleteState extends SearchRequestState {
  /** The (normalised) query the items answer; '' when none. */
  query: string;
  items: AutocompleteHitDto[];
}

/** The results page's loaded pages. */
export interface SearchResultsState extends SearchRequestState {
  items: SearchHitDto[];
  /** The last page loaded (0 before the first). */
  page: number;
  total: number;
  /** Loading the next page. */
  more: SearchRequestState;
}

/** The search slice's state. */
export interface SearchState {
  /** What the header box holds (SPEC "query"). */
  query: string;
  /**
   * SPEC "searching flag": true from a keystroke with a searchable query (at least
   * SEARCH_MIN_QUERY_LENGTH characters) until its autocomplete answer (or
   * failure) arrives, so the box shows a spinner while the debounce and the request run.
   */
  searching: boolean;
  /** The term of the results page (SPEC "search term"), from the URL. */
  term: string;
  /** The filters of the results page (SPEC "filter items"), from the URL. */
  filterItems: SearchFilterItem[];
  autocomplete: AutocompleteState;
  results: SearchResultsState;
}

const idle: SearchRequestState = { status: 'idle', error: null };

/** The state before anything is searched. */
export const initialSearchState: SearchState = {
  query: '',
  searching: false,
  term: '',
  filterItems: [],
  autocomplete: { ...idle, query: '', items: [] },
  results: { ...idle, items: [], page: 0, total: 0, more: idle },
};

const searchSlice = createSlice({
  name: 'search',
  initialState: initialSearchState,
  reducers: {
    /** The header box's text changed; the saga asks for suggestions after a pause. */
    queryChanged(state, action: PayloadAction<string>) {
      state.query = action.payload;
      const searchable = isSearchableQuery(action.payload);
      state.searching = searchable;
      if (!searchable) state.autocomplete = { ...idle, query: '', items: [] };
    },
    /** Suggestions for `query`; ignored unless it is still the box's (normalised) query. */
    autocompleteLoaded(
      state,
      action: PayloadAction<{ query: string; items: AutocompleteHitDto[] }>,
    ) {
      if (action.payload.query !== normalizeSearchQuery(state.query)) return;
      state.searching = false;
      state.autocomplete = {
        status: 'succeeded',
        error: null,
        query: action.payload.query,
        items: action.payload.items,
      };
    },
    /** Suggestions for `query` could not be read; ignored unless it is still the query. */
    autocompleteFailed(state, action: PayloadAction<{ query: string; error: string }>) {
      if (action.payload.query !== normalizeSearchQuery(state.query)) return;
      state.searching = false;
      state.autocomplete = {
        status: 'failed',
        error: action.payload.error,
        query: action.payload.query,
        items: [],
      };
    },
    /** The box was cleared or left after choosing (Escape, a suggestion opened). */
    queryCleared(state) {
      state.query = '';
      state.searching = false;
      state.autocomplete = { ...idle, query: '', items: [] };
    },
    /** The results page shows a view (from its URL): read the first page. */
    resultsRequested(state, action: PayloadAction<SearchView>) {
      state.term = action.payload.term;
      state.filterItems = action.payload.filterItems;
      state.results = {
        status: viewIsSearchable(action.payload) ? 'loading' : 'idle',
        error: null,
        items: [],
        page: 0,
        total: 0,
        more: idle,
      };
    },
    /** A page of results arrived; pages other than the next one are ignored. */
    resultsLoaded(
      state,
      action: PayloadAction<{ page: number; total: number; items: SearchHitDto[] }>,
    ) {
      const { page, total, items } = action.payload;
      const results = state.results;
      if (page !== results.page + 1) return;
      const known = new Set(results.items.map((item) => item.id));
      for (const item of items) if (!known.has(item.id)) results.items.push(item);
      results.page = page;
      results.total = Math.max(total, results.items.length);
      if (page === 1) results.status = 'succeeded';
      else results.more = { status: 'succeeded', error: null };
    },
    /** A page of results could not be read. */
    resultsFailed(state, action: PayloadAction<{ page: number; error: string }>) {
      if (action.payload.page === 1) {
        state.results.status = 'failed';
        state.results.error = action.payload.error;
      } else state.results.more = { status: 'failed', error: action.payload.error };
    },
    /** The end of the list was reached: read the next page when more match. */
    resultsMoreRequested(state) {
      const results = state.results;
      if (
        results.status === 'succeeded' &&
        results.more.status !== 'loading' &&
        results.items.length < results.total
      ) {
        results.more = { status: 'loading', error: null };
      }
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionActions.signedOut, () => initialSearchState)
      .addCase(sessionActions.expired, () => initialSearchState)
      .addCase(sessionActions.endedInAnotherTab, () => initialSearchState)
      .addCase(sessionActions.databaseSwitched, () => initialSearchState);
  },
});

/** Event creators of the search slice. */
export const searchActions = searchSlice.actions;
/** The search slice's reducer. */
export const searchReducer = searchSlice.reducer;
