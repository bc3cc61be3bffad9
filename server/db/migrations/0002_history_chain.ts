/**
 * History made append-only and tamper-evident, and indexed for its filters:
 * - columns `item_id` (the folder or file an event concerns), `chain_seq`, `prev_hash`, `hash`;
 *   events written before this migration are linked into each firm's chain here, oldest first;
 * - indexes for keyset pages by id with each filter (see docs/architecture.md, History);
 * - triggers that refuse UPDATE and DELETE on history_events (and TRUNCATE on PostgreSQL);
 * - PostgreSQL: the id column compares bytewise (COLLATE "C"), so id ranges never depend on the
 *   database's collation.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import { chainHash, GENESIS_HASH, type ChainContent } from '@server/services/historyChain';
import { isPostgres } from './dialect';

const BATCH = 2000;

/**
 * Which database this is. `version()` exists on PostgreSQL only; the probe must not fail there,
 * since a failed statement would abort PostgreSQL's migration transaction (an SQLite error does
 * not end its transaction).
 */

/** Hashes the rows written before the chain existed, per firm in id (time) order, in batches. */
async function linkExistingEvents(db: Kysely<unknown>): Promise<void> {
  let lastDatabase = '';
  let lastId = '';
  let seq = 0;
  let prev = GENESIS_HASH;
  for (;;) {
    const { rows } = await sql<ChainContent>`
      select id, database_id, entity_type, entity_id, item_id, action, user_id, user_name,
             attributes, ip, user_agent, created_at, 0 as chain_seq
      from history_events
      where database_id > ${lastDatabase} or (database_id = ${lastDatabase} and id > ${lastId})
      order by database_id, id
      limit ${BATCH}`.execute(db);
    if (rows.length === 0) return;
    for (const row of rows) {
      if (row.database_id !== lastDatabase) {
        seq = 0;
        prev = GENESIS_HASH;
      }
      seq += 1;
      const hash = chainHash(prev, { ...row, chain_seq: seq });
      await sql`update history_events set chain_seq = ${seq}, prev_hash = ${prev}, hash = ${hash}
                where id = ${row.id}`.execute(db);
      prev = hash;
      lastDatabase = row.database_id;
      lastId = row.id;
    }
  }
}

/**
 * Migration 0002: up adds the chain columns, links existing events, creates the indexes and the
 * append-only triggers; down removes them (and restores the 0001 entity index).
 */
export const historyChain: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    const postgres = await isPostgres(db);
    if (postgres) {
      await sql`alter table history_events alter column id type text collate "C"`.execute(db);
    }
    await db.schema.alterTable('history_events').addColumn('item_id', 'text').execute();
    await db.schema
      .alterTable('history_events')
      .addColumn('chain_seq', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('history_events')
      .addColumn('prev_hash', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema
      .alterTable('history_events')
      .addColumn('hash', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await sql`update history_events set item_id = entity_id
              where entity_type in ('folder', 'file')`.execute(db);
    await linkExistingEvents(db);

    await db.schema
      .createIndex('history_chain')
      .on('history_events')
      .columns(['database_id', 'chain_seq'])
      .unique()
      .execute();
    await db.schema
      .createIndex('history_item')
      .on('history_events')
      .columns(['database_id', 'item_id', 'id'])
      .execute();
    await db.schema
      .createIndex('history_user')
      .on('history_events')
      .columns(['database_id', 'user_id', 'id'])
      .execute();
    await db.schema
      .createIndex('history_type')
      .on('history_events')
      .columns(['database_id', 'entity_type', 'action', 'id'])
      .execute();
    // A user's events of some types: one exact index range per pair.
    await db.schema
      .createIndex('history_user_type')
      .on('history_events')
      .columns(['database_id', 'user_id', 'entity_type', 'action', 'id'])
      .execute();
    // Replaces (database_id, entity_type, entity_id, id): an entity id alone now finds its events.
    await db.schema.dropIndex('history_entity').execute();
    await db.schema
      .createIndex('history_entity_id')
      .on('history_events')
      .columns(['database_id', 'entity_id', 'id'])
      .execute();

    if (postgres) {
      await sql`
        create function history_events_append_only() returns trigger language plpgsql as $$
        begin
          raise exception 'history_events is append-only: % refused', tg_op
            using errcode = 'insufficient_privilege';
        end
        $$`.execute(db);
      await sql`
        create trigger history_events_no_update_delete
        before update or delete on history_events
        for each row execute function history_events_append_only()`.execute(db);
      await sql`
        create trigger history_events_no_truncate
        before truncate on history_events
        for each statement execute function history_events_append_only()`.execute(db);
    } else {
      await sql`
        create trigger history_events_no_update before update on history_events
        begin select raise(abort, 'history_events is append-only: UPDATE refused'); end`.execute(
        db,
      );
      await sql`
        create trigger history_events_no_delete before delete on history_events
        begin select raise(abort, 'history_events is append-only: DELETE refused'); end`.execute(
        db,
      );
    }
  },

  async down(db: Kysely<unknown>): Promise<void> {
    const postgres = await isPostgres(db);
    if (postgres) {
      await sql`drop trigger if exists history_events_no_update_delete on history_events`.execute(
        db,
      );
      await sql`drop trigger if exists history_events_no_truncate on history_events`.execute(db);
      await sql`drop function if exists history_events_append_only()`.execute(db);
    } else {
      await sql`drop trigger if exists history_events_no_update`.execute(db);
      await sql`drop trigger if exists history_events_no_delete`.execute(db);
    }
    for (const index of [
      'history_chain',
      'history_item',
      'history_user',
      'history_type',
      'history_user_type',
      'history_entity_id',
    ]) {
      await db.schema.dropIndex(index).ifExists().execute();
    }
    await db.schema
      .createIndex('history_entity')
      .on('history_events')
      .columns(['database_id', 'entity_type', 'entity_id', 'id'])
      .execute();
    for (const column of ['item_id', 'chain_seq', 'prev_hash', 'hash']) {
      await db.schema.alterTable('history_events').dropColumn(column).execute();
    }
  },
};
