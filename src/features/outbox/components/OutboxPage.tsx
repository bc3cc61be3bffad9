/** The admin section listing the mail outbox (issue 7). */

/** The admin section listing the mail outbox. */
export function OutboxPage() {
  return null;
}
