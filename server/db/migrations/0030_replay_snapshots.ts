/**
 * Replay (docs/architecture/replay.md): `replay_snapshots` keeps the replayed state of a firm's
 * folders and files after some positions of its hash chain, so that the state as of a moment is
 * the nearest snapshot plus the events after it, not the whole history. Derived data: any row can
 * be dropped and is rebuilt from the history on the next replay.
 */
import type { Kysely, Migration } from 'kysely';

export const replaySnapshots: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('replay_snapshots')
      .addColumn('database_id', 'text', (c) =>
        c.notNull().references('databases.id').onDelete('cascade'),
      )
      .addColumn('chain_seq', 'bigint', (c) => c.notNull())
      .addColumn('format', 'integer', (c) => c.notNull())
      .addColumn('item_count', 'bigint', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('replay_snapshots_pk', ['database_id', 'chain_seq'])
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('replay_snapshots').execute();
  },
};
