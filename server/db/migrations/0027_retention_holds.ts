/**
 * Retention schedules and legal holds (docs/architecture.md "Records: retention, holds and
 * disposition"):
 *
 * - `retention_schedules`: a firm's schedules: a period (`period_count` `period_unit`) counted from
 *   `basis` (created, last_version, or index_date with `basis_field_id`), optionally selecting files
 *   by an index value (`selector_field_id`, `selector_value`); `locked_at` once locked. Names are
 *   unique per firm (`name_key`, lowercased in JavaScript).
 * - `retention_targets`: the folders (with everything below) and files a schedule is applied to.
 * - `legal_holds`: a hold's name, reason and matter; `released_at` once released.
 * - `legal_hold_targets`: the folders, files and contacts (their linked folders) a hold names.
 *
 * Targets name their item by type and id without a foreign key (three kinds of item); a target
 * whose item is later destroyed (possible only once nothing protects it) stays as a record of the
 * scope. Triggers back the services' rules up, so that not even a direct statement gets around
 * them: a locked schedule is never deleted, unlocked, given another basis or selector, or given a
 * shorter count of the same unit, and its targets are never deleted; a released hold and its
 * targets never change, and no hold is ever deleted.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from './dialect';

/** The condition, over OLD and NEW, of an update a locked schedule refuses (PostgreSQL form). */
const LOCKED_CHANGE_PG = `old.locked_at is not null and (
  new.locked_at is null
  or new.basis is distinct from old.basis
  or new.basis_field_id is distinct from old.basis_field_id
  or new.selector_field_id is distinct from old.selector_field_id
  or new.selector_value is distinct from old.selector_value
  or new.database_id is distinct from old.database_id
  or (new.period_unit = old.period_unit and new.period_count < old.period_count))`;

/** The same condition in SQLite (`is not` is its null-safe inequality). */
const LOCKED_CHANGE_SQLITE = LOCKED_CHANGE_PG.replace(/is distinct from/g, 'is not');

export const retentionHolds: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('retention_schedules')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('database_id', 'text', (c) =>
        c.notNull().references('databases.id').onDelete('cascade'),
      )
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('name_key', 'text', (c) => c.notNull())
      .addColumn('period_count', 'integer', (c) => c.notNull())
      .addColumn('period_unit', 'text', (c) => c.notNull())
      .addColumn('basis', 'text', (c) => c.notNull())
      .addColumn('basis_field_id', 'text')
      .addColumn('selector_field_id', 'text')
      .addColumn('selector_value', 'text')
      .addColumn('locked_at', 'text')
      .addColumn('locked_by', 'text')
      .addColumn('created_by', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('retention_schedules_name', ['database_id', 'name_key'])
      .execute();

    await db.schema
      .createTable('retention_targets')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('database_id', 'text', (c) => c.notNull())
      .addColumn('schedule_id', 'text', (c) => c.notNull().references('retention_schedules.id'))
      .addColumn('target_type', 'text', (c) => c.notNull())
      .addColumn('target_id', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('retention_targets_item', ['schedule_id', 'target_type', 'target_id'])
      .execute();
    await db.schema
      .createIndex('retention_targets_target')
      .on('retention_targets')
      .columns(['database_id', 'target_id'])
      .execute();

    await db.schema
      .createTable('legal_holds')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('database_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('matter', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_by', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('released_at', 'text')
      .addColumn('released_by', 'text')
      .execute();
    await db.schema
      .createIndex('legal_holds_database')
      .on('legal_holds')
      .columns(['database_id', 'released_at'])
      .execute();

    await db.schema
      .createTable('legal_hold_targets')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('database_id', 'text', (c) => c.notNull())
      .addColumn('hold_id', 'text', (c) => c.notNull().references('legal_holds.id'))
      .addColumn('target_type', 'text', (c) => c.notNull())
      .addColumn('target_id', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('legal_hold_targets_item', ['hold_id', 'target_type', 'target_id'])
      .execute();
    await db.schema
      .createIndex('legal_hold_targets_target')
      .on('legal_hold_targets')
      .columns(['database_id', 'target_id'])
      .execute();

    if (await isPostgres(db)) {
      await sql`
        create function records_refuse() returns trigger language plpgsql as $$
        begin
          raise exception '%', tg_argv[0] using errcode = 'insufficient_privilege';
        end
        $$`.execute(db);
      await sql
        .raw(
          `
        create trigger retention_schedules_locked_delete before delete on retention_schedules
        for each row when (old.locked_at is not null)
        execute function records_refuse('a locked retention schedule is never deleted')`,
        )
        .execute(db);
      await sql
        .raw(
          `
        create trigger retention_schedules_locked_update before update on retention_schedules
        for each row when (${LOCKED_CHANGE_PG})
        execute function records_refuse('a locked retention schedule is only lengthened')`,
        )
        .execute(db);
      await sql`
        create function retention_targets_guard() returns trigger language plpgsql as $$
        begin
          if exists (select 1 from retention_schedules s
                     where s.id = old.schedule_id and s.locked_at is not null) then
            raise exception 'the targets of a locked retention schedule are never removed'
              using errcode = 'insufficient_privilege';
          end if;
          if tg_op = 'DELETE' then return old; end if;
          return new;
        end
        $$`.execute(db);
      await sql`
        create trigger retention_targets_locked before delete or update on retention_targets
        for each row execute function retention_targets_guard()`.execute(db);
      await sql`
        create trigger legal_holds_no_delete before delete on legal_holds
        for each row execute function records_refuse('a legal hold is never deleted')`.execute(db);
      await sql`
        create trigger legal_holds_released before update on legal_holds
        for each row when (old.released_at is not null)
        execute function records_refuse('a released legal hold never changes')`.execute(db);
      await sql`
        create function legal_hold_targets_guard() returns trigger language plpgsql as $$
        begin
          if exists (select 1 from legal_holds h
                     where h.id = old.hold_id and h.released_at is not null) then
            raise exception 'the targets of a released legal hold never change'
              using errcode = 'insufficient_privilege';
          end if;
          if tg_op = 'DELETE' then return old; end if;
          return new;
        end
        $$`.execute(db);
      await sql`
        create trigger legal_hold_targets_released before delete or update on legal_hold_targets
        for each row execute function legal_hold_targets_guard()`.execute(db);
    } else {
      await sql`
        create trigger retention_schedules_locked_delete before delete on retention_schedules
        when old.locked_at is not null
        begin select raise(abort, 'a locked retention schedule is never deleted'); end`.execute(db);
      await sql
        .raw(
          `
        create trigger retention_schedules_locked_update before update on retention_schedules
        when ${LOCKED_CHANGE_SQLITE}
        begin select raise(abort, 'a locked retention schedule is only lengthened'); end`,
        )
        .execute(db);
      for (const op of ['delete', 'update']) {
        await sql
          .raw(
            `
          create trigger retention_targets_locked_${op} before ${op} on retention_targets
          when exists (select 1 from retention_schedules s
                       where s.id = old.schedule_id and s.locked_at is not null)
          begin select raise(abort, 'the targets of a locked retention schedule are never removed'); end`,
          )
          .execute(db);
        await sql
          .raw(
            `
          create trigger legal_hold_targets_released_${op} before ${op} on legal_hold_targets
          when exists (select 1 from legal_holds h
                       where h.id = old.hold_id and h.released_at is not null)
          begin select raise(abort, 'the targets of a released legal hold never change'); end`,
          )
          .execute(db);
      }
      await sql`
        create trigger legal_holds_no_delete before delete on legal_holds
        begin select raise(abort, 'a legal hold is never deleted'); end`.execute(db);
      await sql`
        create trigger legal_holds_released before update on legal_holds
        when old.released_at is not null
        begin select raise(abort, 'a released legal hold never changes'); end`.execute(db);
    }
  },

  async down(db: Kysely<unknown>): Promise<void> {
    if (await isPostgres(db)) {
      for (const [table, trigger] of [
        ['retention_schedules', 'retention_schedules_locked_delete'],
        ['retention_schedules', 'retention_schedules_locked_update'],
        ['retention_targets', 'retention_targets_locked'],
        ['legal_holds', 'legal_holds_no_delete'],
        ['legal_holds', 'legal_holds_released'],
        ['legal_hold_targets', 'legal_hold_targets_released'],
      ] as const) {
        await sql.raw(`drop trigger if exists ${trigger} on ${table}`).execute(db);
      }
      for (const fn of ['records_refuse', 'retention_targets_guard', 'legal_hold_targets_guard']) {
        await sql.raw(`drop function if exists ${fn}()`).execute(db);
      }
    }
    for (const table of [
      'legal_hold_targets',
      'legal_holds',
      'retention_targets',
      'retention_schedules',
    ]) {
      await db.schema.dropTable(table).ifExists().execute();
    }
  },
};
