/** Share links, invitations, guest access and the mail outbox index (issue 7). */
import type { Migration } from 'kysely';

export const sharing: Migration = {
  async up(): Promise<void> {
    // Filled in by the work; an empty migration changes nothing.
  },
};
