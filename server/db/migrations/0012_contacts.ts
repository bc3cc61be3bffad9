/** CRM contacts and folder contacts (issue 9). */
import type { Migration } from 'kysely';

export const contacts: Migration = {
  async up(): Promise<void> {
    // Filled in by the work; an empty migration changes nothing.
  },
};
