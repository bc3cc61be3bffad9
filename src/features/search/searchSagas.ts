/**
 * Side effects of the search feature. Autocomplete: each keystroke restarts a
 * AUTOCOMPLETE_DEBOUNCE_MS pause (takeLatest cancels the previous worker, and aborts its request
 * when it was already sent), so typing fast sends one query for the text the user stopped at and
 * only the latest answer is shown. Results: the results page's view is read page by page (POST
 * entities/search with a term, entities/filtered without one). Every worker is wrapped with
 * `safely`.
 */
import type { Action, PayloadAction } from '@reduxjs/toolkit';
import {
  all,
  call,
  cancelled,
  delay,
  put,
  select,
  takeLatest,
  takeLeading,
} from 'typed-redux-saga';
import { AUTOCOMPLETE_DEBOUNCE_MS, isSearchableQuery, normalizeSearchQuery } from '@common/search';
import { errorMessage } from '@src/api/client';
import { safely } from '@src/sagas/safely';
import type { RootState } from '@src/store/rootReducer';
import * as searchApi from './searchApi';
import { filtersForView, viewIsSearchable, type SearchView } from './searchFilters';
import { searchActions } from './searchSlice';
import type { Saga } from '@src/sagas/saga';

const selectSearchState = (state: RootState) => state.search;

/**
 * The box's text changed (`search/queryChanged`; `search/queryCleared` only cancels the previous
 * run): after the pause, ask for suggestions for the trimmed text. Cancelled
 * (by the next keystroke) during the pause, it sends nothing; cancelled while waiting for the
 * answer, it aborts the request and the answer is never shown.
 */
export function* autocomplete(action: Action): Saga {
  if (!searchActions.queryChanged.match(action)) return;
  const query = normalizeSearchQuery(action.payload);
  if (!isSearchableQuery(query)) return;
  yield* delay(AUTOCOMPLETE_DEBOUNCE_MS);
  const controller = new AbortController();
  try {
    const answer = yield* call(searchApi.fetchAutocomplete, query, controller.signal);
    yield* put(searchActions.autocompleteLoaded({ query, items: answer.items }));
  } catch (error) {
    if (controller.signal.aborted) return;
    yield* put(searchActions.autocompleteFailed({ query, error: errorMessage(error) }));
  } finally {
    if (yield* cancelled()) controller.abort();
  }
}

/** Reads one page of the results page's view. */
function* loadPage(view: SearchView, page: number): Saga {
  try {
    const answer = yield* call(searchApi.fetchSearchPage, filtersForView(view, new Date()), page);
    yield* put(searchActions.resultsLoaded({ page, total: answer.total, items: answer.items }));
  } catch (error) {
    yield* put(searchActions.resultsFailed({ page, error: errorMessage(error) }));
  }
}

/**
 * The results page shows a view: read its first page (nothing without a term or filter, or with a
 * term shorter than SEARCH_MIN_QUERY_LENGTH: the page says so).
 */
export function* loadResults(action: PayloadAction<SearchView>): Saga {
  if (!viewIsSearchable(action.payload)) return;
  yield* call(loadPage, action.payload, 1);
}

/** The end of the results was reached: read the next page. */
export function* loadMoreResults(): Saga {
  const state = yield* select(selectSearchState);
  if (state.results.more.status !== 'loading') return;
  yield* call(
    loadPage,
    { term: state.term, filterItems: state.filterItems },
    state.results.page + 1,
  );
}

/** The search feature saga. */
export function* searchSaga(): Saga {
  yield* all([
    // One takeLatest for both: a cleared box also cancels the pending suggestions.
    takeLatest(
      [searchActions.queryChanged.type, searchActions.queryCleared.type],
      safely(autocomplete),
    ),
    takeLatest(searchActions.resultsRequested.type, safely(loadResults)),
    takeLeading(searchActions.resultsMoreRequested.type, safely(loadMoreResults)),
  ]);
}
