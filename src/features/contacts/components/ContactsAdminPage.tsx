/** The admin section importing contacts from CSV (issue 9). */

/** The admin section importing contacts from CSV. */
export function ContactsAdminPage() {
  return null;
}
