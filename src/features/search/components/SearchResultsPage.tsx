/** The search results page with its filters (issue 9). */

/** The search results page with its filters. */
export function SearchResultsPage() {
  return null;
}
