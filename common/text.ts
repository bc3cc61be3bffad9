/** Small text helpers (SPEC.md section 5: "Text helpers"). */

/**
 * Uppercases the first letter and lowercases the rest: "hELLO wORLD" gives "Hello world".
 *
 * @param text any text
 * @returns the capitalized text ('' for '')
 */
export function capitalize(text: string): string {
  if (text === '') return '';
  return text.charAt(0).toUpperCase() + text.slice(1).toLowerCase();
}

/**
 * Splits a camel-case name into words separated by single spaces, keeping the letters' case:
 * "firstName" gives "first Name", "createdByName" gives "created By Name", and an acronym stays
 * whole: "HTMLParser" gives "HTML Parser". Combine with {@link capitalize} for a label.
 *
 * @param text a camel-case (or Pascal-case) identifier
 * @returns the words joined by spaces
 */
export function splitCamelCase(text: string): string {
  return text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
}

/**
 * Adds the plural 's' when the count is not 1: plural(1, 'file') gives "file", plural(0, 'file')
 * and plural(2, 'file') give "files". The count itself is not included.
 *
 * @param count how many
 * @param word the singular word
 * @returns the word, with 's' appended unless count is exactly 1
 */
export function plural(count: number, word: string): string {
  return count === 1 ? word : `${word}s`;
}
