/**
 * Firm provisioning (docs/architecture.md "Firm provisioning"):
 *
 * - `databases.disabled_at`: an operator disabled the firm; nobody signs in to it or switches to
 *   it, and its sessions end at their next request. Its data is kept.
 * - `databases.name_key`: the lowercased name (lowercased in JavaScript, as every name key, so
 *   both databases agree), unique: two firms never share a name, case-insensitively. Rows that
 *   existed before keep their name; of existing firms sharing a name only the oldest gets the key
 *   (the others have none until renamed), so the migration never fails on old data.
 * - `users.is_operator`: the user may manage firms (the operator's page and API); set only from
 *   the command line (`npm run admin -- operator grant <username>`).
 */
import { sql, type Kysely, type Migration } from 'kysely';
import { nameKey } from '@common/names';

export const firmProvisioning: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('databases').addColumn('disabled_at', 'text').execute();
    await db.schema.alterTable('databases').addColumn('name_key', 'text').execute();
    await db.schema
      .alterTable('users')
      .addColumn('is_operator', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    const rows = await sql<{ id: string; name: string }>`
      select id, name from databases order by created_at, id`.execute(db);
    const taken = new Set<string>();
    for (const row of rows.rows) {
      const key = nameKey(row.name.trim());
      if (taken.has(key)) continue;
      taken.add(key);
      await sql`update databases set name_key = ${key} where id = ${row.id}`.execute(db);
    }
    await db.schema
      .createIndex('databases_name_key')
      .on('databases')
      .column('name_key')
      .unique()
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('databases_name_key').execute();
    await db.schema.alterTable('users').dropColumn('is_operator').execute();
    await db.schema.alterTable('databases').dropColumn('name_key').execute();
    await db.schema.alterTable('databases').dropColumn('disabled_at').execute();
  },
};
