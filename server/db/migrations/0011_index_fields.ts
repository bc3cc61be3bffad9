/** Index fields and applied indexes (issue 9). */
import type { Migration } from 'kysely';

export const indexFields: Migration = {
  async up(): Promise<void> {
    // Filled in by the work; an empty migration changes nothing.
  },
};
