/** The admin section managing index fields (issue 9). */

/** The admin section managing index fields. */
export function IndexFieldsPage() {
  return null;
}
