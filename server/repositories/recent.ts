/** Each user's recent items (the Recent page): the last touch per file or folder. */
import type { Insertable } from 'kysely';
import type { RecentItemsTable } from '../db/schema';
import type { Executor } from './types';

/** One touch to keep: who touched which item, how (history action) and when (ISO UTC). */
export type RecentTouch = Insertable<RecentItemsTable>;

/**
 * Keeps each touch as its user's latest for the item (insert, or replace an older one). The
 * touches of one call must name distinct (user, item) pairs.
 */
export async function upsertRecentItems(db: Executor, touches: RecentTouch[]): Promise<void> {
  if (touches.length === 0) return;
  await db
    .insertInto('recent_items')
    .values(touches)
    .onConflict((oc) =>
      oc.columns(['user_id', 'entity_id']).doUpdateSet((eb) => ({
        action: eb.ref('excluded.action'),
        at: eb.ref('excluded.at'),
      })),
    )
    .execute();
}
