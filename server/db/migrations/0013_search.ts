/** Full-text search documents, kept in step by triggers (issue 9). */
import type { Migration } from 'kysely';

export const search: Migration = {
  async up(): Promise<void> {
    // Filled in by the work; an empty migration changes nothing.
  },
};
