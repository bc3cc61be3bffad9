/** A user's preferences: one JSON value per name (user_preferences, 0022). */
import type { Executor } from './types';

/** The stored JSON text of a user's preference, or undefined when never set. */
export async function findPreference(
  db: Executor,
  userId: string,
  name: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('user_preferences')
    .select('value')
    .where('user_id', '=', userId)
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.value;
}

/** Stores a user's preference (JSON text), replacing the previous value. */
export async function upsertPreference(
  db: Executor,
  row: { user_id: string; name: string; value: string; updated_at: string },
): Promise<void> {
  await db
    .insertInto('user_preferences')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['user_id', 'name']).doUpdateSet({ value: row.value, updated_at: row.updated_at }),
    )
    .execute();
}
