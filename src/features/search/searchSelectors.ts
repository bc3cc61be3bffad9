/** Selectors of the search feature. */
import type { RootState } from '../../store/rootReducer';

/** The whole search panel state. */
export const selectSearch = (state: RootState) => state.search;
/** The header box's text (SPEC "query"). */
export const selectSearchQuery = (state: RootState) => state.search.query;
/** SPEC "searching flag": suggestions for the query are on their way. */
export const selectSearching = (state: RootState) => state.search.searching;
/** The autocomplete answer for the current query. */
export const selectAutocomplete = (state: RootState) => state.search.autocomplete;
/** The results page's term (SPEC "search term"). */
export const selectSearchTerm = (state: RootState) => state.search.term;
/** The results page's filter items (SPEC "filter items"). */
export const selectSearchFilterItems = (state: RootState) => state.search.filterItems;
/** The loaded results. */
export const selectSearchResults = (state: RootState) => state.search.results;
