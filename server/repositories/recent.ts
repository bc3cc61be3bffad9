/** Each user's recent items (the Recent page, issue 3): the last touch per file or folder. */
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

/** Forgets items that no longer exist (permanent delete), for every user. */
export async function deleteRecentItems(
  db: Executor,
  databaseId: string,
  entityIds: string[],
): Promise<void> {
  if (entityIds.length === 0) return;
  await db
    .deleteFrom('recent_items')
    .where('database_id', '=', databaseId)
    .where('entity_id', 'in', entityIds)
    .execute();
}
