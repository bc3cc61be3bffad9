/** The page listing files missing values for chosen index fields (issue 9). */

/** The page listing files missing values for chosen index fields. */
export function MissingIndexesPage() {
  return null;
}
