/** Selectors of the search feature. */
import type { RootState } from '@src/store/rootReducer';

/** The header box's text (SPEC "query"). */
export const selectSearchQuery = (state: RootState) => state.search.query;
/** SPEC "searching flag": suggestions for the query are on their way. */
export const selectSearching = (state: RootState) => state.search.searching;
/** The autocomplete answer for the current query. */
export const selectAutocomplete = (state: RootState) => state.search.autocomplete;
/** The loaded results. */
export const selectSearchResults = (state: RootState) => state.search.results;
