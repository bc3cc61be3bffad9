/** The search box in the header with its autocomplete (issue 9). */

/** The search box in the header with its autocomplete. */
export function SearchBox() {
  return null;
}
