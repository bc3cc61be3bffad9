/**
 * Folder tree versions (autocomplete within 2× of the raw full-text query).
 * `folder_tree_versions` holds one counter per firm database that triggers raise, in the
 * transaction of the change, whenever anything a folder's path or visibility depends on changes:
 * a folder is created, renamed, moved or deleted, a folder permission is added, changed or
 * removed, a team gains or loses a member, or a team is deleted. The server keeps each firm's
 * folder tree in memory (server/services/folderTree.ts) and reloads it when a read sees another
 * version in the same statement as its rows, so paths and visibility from the copy are never
 * older than the rows they decorate.
 *
 * - SQLite: a row trigger per change (writes are serial, so the counter costs no waiting).
 * - PostgreSQL: a deferred constraint trigger raises the counter once per firm and transaction, at
 *   commit (a transaction-local setting remembers that it did). The counter's row is then locked
 *   only while its transaction commits, after every other lock of that transaction is held, so
 *   two transactions changing one firm's folders wait for each other's commit at most and cannot
 *   deadlock on it; a transaction that rolls back raises nothing.
 */
import type { Kysely, Migration } from 'kysely';
import { isPostgres, runStatements } from './dialect';

/** SQLite: raises the firm's version (`firm` is an SQL expression of its database id). */
const bump = (firm: string) =>
  `insert into folder_tree_versions (database_id, version) values (${firm}, 1)
     on conflict (database_id) do update set version = version + 1;`;

/** SQLite triggers: name, event, the firm's id. */
const SQLITE_TRIGGERS: [name: string, when: string, firm: string][] = [
  ['folder_tree_folders_ai', 'after insert on folders', 'new.database_id'],
  ['folder_tree_folders_au', 'after update of name, parent_id on folders', 'new.database_id'],
  ['folder_tree_folders_ad', 'after delete on folders', 'old.database_id'],
  ['folder_tree_permissions_ai', 'after insert on folder_permissions', 'new.database_id'],
  ['folder_tree_permissions_au', 'after update on folder_permissions', 'new.database_id'],
  ['folder_tree_permissions_ad', 'after delete on folder_permissions', 'old.database_id'],
  [
    'folder_tree_team_members_ai',
    'after insert on team_members',
    '(select database_id from teams where id = new.team_id)',
  ],
  [
    'folder_tree_team_members_ad',
    'after delete on team_members',
    '(select database_id from teams where id = old.team_id)',
  ],
  // A team's members go with it (foreign key cascade), after the team row: counted here.
  ['folder_tree_teams_ad', 'before delete on teams', 'old.database_id'],
];

/** PostgreSQL: the tables and events whose rows raise the version. */
const PG_TRIGGERS: [table: string, events: string][] = [
  ['folders', 'insert or delete or update of name, parent_id'],
  ['folder_permissions', 'insert or delete or update'],
  ['team_members', 'insert or delete'],
  ['teams', 'delete'],
];

const PG_FUNCTION = `create or replace function folder_tree_bump() returns trigger
  language plpgsql as $fn$
  declare
    firm text;
    flag text;
  begin
    if tg_table_name = 'team_members' then
      -- A team deleted with its members is counted by the teams trigger.
      select t.database_id into firm from teams t
        where t.id = case when tg_op = 'DELETE' then old.team_id else new.team_id end;
    else
      firm := case when tg_op = 'DELETE' then old.database_id else new.database_id end;
    end if;
    if firm is null then
      return null;
    end if;
    flag := 'dossier.folder_tree_' || md5(firm);
    if current_setting(flag, true) is distinct from '1' then
      perform set_config(flag, '1', true);
      insert into folder_tree_versions (database_id, version) values (firm, 1)
        on conflict (database_id)
        do update set version = folder_tree_versions.version + 1;
    end if;
    return null;
  end $fn$`;

export const folderTreeVersions: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    if (await isPostgres(db)) {
      await runStatements(db, [
        `create table folder_tree_versions (
           database_id text primary key,
           version bigint not null)`,
        PG_FUNCTION,
        ...PG_TRIGGERS.map(
          ([table, events]) =>
            `create constraint trigger folder_tree_${table} after ${events} on ${table}
               deferrable initially deferred for each row execute function folder_tree_bump()`,
        ),
      ]);
      return;
    }
    await runStatements(db, [
      `create table folder_tree_versions (
         database_id text primary key,
         version integer not null)`,
      ...SQLITE_TRIGGERS.map(
        ([name, when, firm]) =>
          `create trigger ${name} ${when} when ${firm} is not null begin ${bump(firm)} end`,
      ),
    ]);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    if (await isPostgres(db)) {
      await runStatements(db, [
        ...PG_TRIGGERS.map(([table]) => `drop trigger if exists folder_tree_${table} on ${table}`),
        'drop function if exists folder_tree_bump()',
        'drop table if exists folder_tree_versions',
      ]);
      return;
    }
    await runStatements(db, [
      ...SQLITE_TRIGGERS.map(([name]) => `drop trigger if exists ${name}`),
      'drop table if exists folder_tree_versions',
    ]);
  },
};
