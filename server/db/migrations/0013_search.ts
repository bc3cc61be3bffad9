/**
 * Full-text search documents: one row per ready file and per folder in
 * `search_documents` (name, name_key, stem_key = name_key without the extension, the item's live
 * applied index values as `index_text`, the names of the contacts linked to a folder as
 * `contact_text`, archived flag, created_at, extension, and `scope_id`: the folder whose visibility
 * decides the row's — the folder itself, or the file's folder).
 *
 * The rows are kept in step **by database triggers** on folders, files, applied_indexes,
 * folder_contacts and contacts, so every service's change (rename, move, archive, restore, upload
 * verified, index values, contact links and renames) updates the index in its own transaction.
 *
 * Full-text: words are Unicode letters and digits (everything else separates); a query matches
 * when all its words do, the last as a word prefix, on both dialects:
 * - SQLite: FTS5 table `search_fts` with external content `search_documents` (content_rowid `rid`),
 *   tokenizer unicode61 with prefix indexes of 2 and 3 characters (so 2-character queries are one
 *   index lookup), kept in step with `search_documents` by three more triggers.
 * - PostgreSQL: a stored generated `tsv` column (to_tsvector('simple', words)) with a GIN index
 *   (pending list limited to 256 kB); queries are `'word' & 'last':*` tsqueries.
 * On both, `(database_id, archived, name_key)` and `(…, stem_key)` B-trees serve exact and prefix
 * name matches (ranked first), and `(database_id, scope_id)` the folder-subtree filter.
 * Backfill: every existing folder and ready file is indexed.
 */
import { type Kysely, type Migration } from 'kysely';
import { isPostgres, runStatements } from './dialect';

/** SQLite: the live applied values of an entity, space separated. */
const SQLITE_INDEX_TEXT = (db: string, id: string) =>
  `coalesce((select group_concat(a.value, ' ') from applied_indexes a
     where a.database_id = ${db} and a.entity_id = ${id} and a.archived_at is null), '')`;
/** SQLite: the names of the contacts linked to a folder, space separated. */
const SQLITE_CONTACT_TEXT = (id: string, except = "''") =>
  `coalesce((select group_concat(c.name, ' ') from folder_contacts fc
     join contacts c on c.id = fc.contact_id where fc.folder_id = ${id} and c.id <> ${except}), '')`;

const SQLITE_STEM = (r: string) =>
  `case when ${r}.extension <> '' and substr(${r}.name_key, -length(${r}.extension) - 1) = '.' || ${r}.extension
     then substr(${r}.name_key, 1, length(${r}.name_key) - length(${r}.extension) - 1)
     else ${r}.name_key end`;

/** The columns of a search document's insert (0014 reuses them). */
export const SEARCH_COLUMNS =
  'id, database_id, entity_type, scope_id, parent_id, name, name_key, stem_key, extension, index_text, contact_text, archived, created_at';

/** The upsert's assignments (0014 reuses them). */
export const SQLITE_UPSERT_SET = `on conflict(id) do update set scope_id = excluded.scope_id,
  parent_id = excluded.parent_id, name = excluded.name, name_key = excluded.name_key,
  stem_key = excluded.stem_key, extension = excluded.extension, index_text = excluded.index_text,
  contact_text = excluded.contact_text, archived = excluded.archived, created_at = excluded.created_at`;

/** SQLite: the document of one folder row `r`. */
const sqliteFolderSelect = (r: string) =>
  `select ${r}.id, ${r}.database_id, 'folder', ${r}.id, ${r}.parent_id, ${r}.name, ${r}.name_key,
     ${r}.name_key, '', ${SQLITE_INDEX_TEXT(`${r}.database_id`, `${r}.id`)},
     ${SQLITE_CONTACT_TEXT(`${r}.id`)}, ${r}.archived_at is not null, ${r}.created_at`;

/** SQLite: the document of one file row `r` (0014 reuses it). */
export const sqliteFileSelect = (r: string) =>
  `select ${r}.id, ${r}.database_id, 'file', ${r}.folder_id, ${r}.folder_id, ${r}.name,
     ${r}.name_key, ${SQLITE_STEM(r)}, ${r}.extension,
     ${SQLITE_INDEX_TEXT(`${r}.database_id`, `${r}.id`)}, '', ${r}.archived_at is not null,
     ${r}.created_at`;

const SQLITE_UP = [
  `create table search_documents (
     rid integer primary key,
     id text not null unique,
     database_id text not null,
     entity_type text not null,
     scope_id text not null,
     parent_id text not null,
     name text not null,
     name_key text not null,
     stem_key text not null,
     extension text not null,
     index_text text not null default '',
     contact_text text not null default '',
     archived integer not null default 0,
     created_at text not null)`,
  `create index search_documents_name on search_documents (database_id, archived, name_key)`,
  `create index search_documents_stem on search_documents (database_id, archived, stem_key)`,
  `create index search_documents_scope on search_documents (database_id, scope_id)`,
  `create virtual table search_fts using fts5(name, index_text, contact_text,
     content='search_documents', content_rowid='rid', tokenize='unicode61', prefix='2 3')`,
  // The FTS table follows search_documents (the external-content pattern of the FTS5 manual).
  `create trigger search_documents_ai after insert on search_documents begin
     insert into search_fts(rowid, name, index_text, contact_text)
     values (new.rid, new.name, new.index_text, new.contact_text);
   end`,
  `create trigger search_documents_ad after delete on search_documents begin
     insert into search_fts(search_fts, rowid, name, index_text, contact_text)
     values ('delete', old.rid, old.name, old.index_text, old.contact_text);
   end`,
  `create trigger search_documents_au after update on search_documents
   when old.name is not new.name or old.index_text is not new.index_text
     or old.contact_text is not new.contact_text begin
     insert into search_fts(search_fts, rowid, name, index_text, contact_text)
     values ('delete', old.rid, old.name, old.index_text, old.contact_text);
     insert into search_fts(rowid, name, index_text, contact_text)
     values (new.rid, new.name, new.index_text, new.contact_text);
   end`,
  // Folders.
  `create trigger search_folders_ai after insert on folders begin
     insert into search_documents (${SEARCH_COLUMNS}) ${sqliteFolderSelect('new')} where true
     ${SQLITE_UPSERT_SET};
   end`,
  `create trigger search_folders_au after update of name, name_key, parent_id, archived_at on folders begin
     update search_documents set name = new.name, name_key = new.name_key, stem_key = new.name_key,
       parent_id = new.parent_id, archived = new.archived_at is not null
     where id = new.id;
   end`,
  `create trigger search_folders_ad after delete on folders begin
     delete from search_documents where id = old.id;
   end`,
  // Files: only ready files are documents.
  `create trigger search_files_ai after insert on files when new.status = 'ready' begin
     insert into search_documents (${SEARCH_COLUMNS}) ${sqliteFileSelect('new')} where true
     ${SQLITE_UPSERT_SET};
   end`,
  `create trigger search_files_au_ready after update on files when new.status = 'ready' begin
     insert into search_documents (${SEARCH_COLUMNS}) ${sqliteFileSelect('new')} where true
     ${SQLITE_UPSERT_SET};
   end`,
  `create trigger search_files_au_pending after update on files when new.status <> 'ready' begin
     delete from search_documents where id = new.id;
   end`,
  `create trigger search_files_ad after delete on files begin
     delete from search_documents where id = old.id;
   end`,
  // Applied indexes: the entity's index_text.
  `create trigger search_applied_ai after insert on applied_indexes begin
     update search_documents set index_text = ${SQLITE_INDEX_TEXT('new.database_id', 'new.entity_id')}
     where id = new.entity_id;
   end`,
  `create trigger search_applied_au after update on applied_indexes begin
     update search_documents set index_text = ${SQLITE_INDEX_TEXT('new.database_id', 'new.entity_id')}
     where id = new.entity_id;
     update search_documents set index_text = ${SQLITE_INDEX_TEXT('old.database_id', 'old.entity_id')}
     where id = old.entity_id and old.entity_id <> new.entity_id;
   end`,
  `create trigger search_applied_ad after delete on applied_indexes begin
     update search_documents set index_text = ${SQLITE_INDEX_TEXT('old.database_id', 'old.entity_id')}
     where id = old.entity_id;
   end`,
  // Folder contacts and contacts: the folder's contact_text.
  `create trigger search_folder_contacts_ai after insert on folder_contacts begin
     update search_documents set contact_text = ${SQLITE_CONTACT_TEXT('new.folder_id')}
     where id = new.folder_id;
   end`,
  `create trigger search_folder_contacts_ad after delete on folder_contacts begin
     update search_documents set contact_text = ${SQLITE_CONTACT_TEXT('old.folder_id')}
     where id = old.folder_id;
   end`,
  `create trigger search_contacts_au after update of name on contacts when old.name is not new.name begin
     update search_documents set contact_text = ${SQLITE_CONTACT_TEXT('search_documents.id')}
     where id in (select folder_id from folder_contacts where contact_id = new.id);
   end`,
  `create trigger search_contacts_bd before delete on contacts begin
     update search_documents set contact_text = ${SQLITE_CONTACT_TEXT('search_documents.id', 'old.id')}
     where id in (select folder_id from folder_contacts where contact_id = old.id);
   end`,
  // Backfill.
  `insert into search_documents (${SEARCH_COLUMNS}) ${sqliteFolderSelect('f')} from folders f where true`,
  `insert into search_documents (${SEARCH_COLUMNS}) ${sqliteFileSelect('f')} from files f
     where f.status = 'ready'`,
];

const SQLITE_DOWN = [
  'search_documents_ai',
  'search_documents_ad',
  'search_documents_au',
  'search_folders_ai',
  'search_folders_au',
  'search_folders_ad',
  'search_files_ai',
  'search_files_au_ready',
  'search_files_au_pending',
  'search_files_ad',
  'search_applied_ai',
  'search_applied_au',
  'search_applied_ad',
  'search_folder_contacts_ai',
  'search_folder_contacts_ad',
  'search_contacts_au',
  'search_contacts_bd',
]
  .map((t) => `drop trigger if exists ${t}`)
  .concat(['drop table if exists search_fts', 'drop table if exists search_documents']);

/** PostgreSQL: the live applied values of an entity, space separated. */
const PG_INDEX_TEXT = (db: string, id: string) =>
  `coalesce((select string_agg(a.value, ' ') from applied_indexes a
     where a.database_id = ${db} and a.entity_id = ${id} and a.archived_at is null), '')`;
/** PostgreSQL: the names of the contacts linked to a folder, space separated. */
const PG_CONTACT_TEXT = (id: string, except = "''") =>
  `coalesce((select string_agg(c.name, ' ') from folder_contacts fc
     join contacts c on c.id = fc.contact_id where fc.folder_id = ${id} and c.id <> ${except}), '')`;

const PG_STEM = (r: string) =>
  `case when ${r}.extension <> '' and right(${r}.name_key, length(${r}.extension) + 1) = '.' || ${r}.extension
     then left(${r}.name_key, length(${r}.name_key) - length(${r}.extension) - 1)
     else ${r}.name_key end`;

const PG_UPSERT_SET = SQLITE_UPSERT_SET;

const pgFolderSelect = (r: string) =>
  `select ${r}.id, ${r}.database_id, 'folder', ${r}.id, ${r}.parent_id, ${r}.name, ${r}.name_key,
     ${r}.name_key, '', ${PG_INDEX_TEXT(`${r}.database_id`, `${r}.id`)},
     ${PG_CONTACT_TEXT(`${r}.id`)}, case when ${r}.archived_at is null then 0 else 1 end,
     ${r}.created_at`;

const pgFileSelect = (r: string) =>
  `select ${r}.id, ${r}.database_id, 'file', ${r}.folder_id, ${r}.folder_id, ${r}.name,
     ${r}.name_key, ${PG_STEM(r)}, ${r}.extension,
     ${PG_INDEX_TEXT(`${r}.database_id`, `${r}.id`)}, '',
     case when ${r}.archived_at is null then 0 else 1 end, ${r}.created_at`;

/** A PL/pgSQL trigger function and its row trigger. */
function pgTrigger(name: string, table: string, when: string, body: string): string[] {
  return [
    `create or replace function ${name}() returns trigger language plpgsql as $fn$
     begin
       ${body}
       return null;
     end $fn$`,
    `create trigger ${name} after ${when} on ${table} for each row execute function ${name}()`,
  ];
}

const PG_UP = [
  `create table search_documents (
     id text collate "C" primary key,
     database_id text not null,
     entity_type text not null,
     scope_id text not null,
     parent_id text not null,
     name text not null,
     name_key text collate "C" not null,
     stem_key text collate "C" not null,
     extension text not null,
     index_text text not null default '',
     contact_text text not null default '',
     archived integer not null default 0,
     created_at text not null,
     tsv tsvector generated always as (to_tsvector('simple'::regconfig,
       regexp_replace(lower(name || ' ' || index_text || ' ' || contact_text),
         '[^[:alnum:]]+', ' ', 'g'))) stored)`,
  `create index search_documents_name on search_documents (database_id, archived, name_key)`,
  `create index search_documents_stem on search_documents (database_id, archived, stem_key)`,
  `create index search_documents_scope on search_documents (database_id, scope_id)`,
  // A small pending list: GIN's fast-update list is scanned linearly by every query until
  // (auto)vacuum merges it, so it is kept at 256 kB instead of the 4 MB default.
  `create index search_documents_tsv on search_documents using gin (tsv)
     with (gin_pending_list_limit = 256)`,
  ...pgTrigger(
    'search_folders_ai',
    'folders',
    'insert',
    `insert into search_documents (${SEARCH_COLUMNS}) ${pgFolderSelect('new')} ${PG_UPSERT_SET};`,
  ),
  ...pgTrigger(
    'search_folders_au',
    'folders',
    'update of name, name_key, parent_id, archived_at',
    `update search_documents set name = new.name, name_key = new.name_key,
       stem_key = new.name_key, parent_id = new.parent_id,
       archived = case when new.archived_at is null then 0 else 1 end
     where id = new.id;`,
  ),
  ...pgTrigger(
    'search_folders_ad',
    'folders',
    'delete',
    `delete from search_documents where id = old.id;`,
  ),
  ...pgTrigger(
    'search_files_aiu',
    'files',
    'insert or update',
    `if new.status = 'ready' then
       insert into search_documents (${SEARCH_COLUMNS}) ${pgFileSelect('new')} ${PG_UPSERT_SET};
     elsif tg_op = 'UPDATE' then
       delete from search_documents where id = new.id;
     end if;`,
  ),
  ...pgTrigger(
    'search_files_ad',
    'files',
    'delete',
    `delete from search_documents where id = old.id;`,
  ),
  ...pgTrigger(
    'search_applied_aiud',
    'applied_indexes',
    'insert or update or delete',
    `if tg_op <> 'DELETE' then
       update search_documents set index_text = ${PG_INDEX_TEXT('new.database_id', 'new.entity_id')}
       where id = new.entity_id;
     end if;
     if tg_op = 'DELETE' or (tg_op = 'UPDATE' and old.entity_id <> new.entity_id) then
       update search_documents set index_text = ${PG_INDEX_TEXT('old.database_id', 'old.entity_id')}
       where id = old.entity_id;
     end if;`,
  ),
  ...pgTrigger(
    'search_folder_contacts_aid',
    'folder_contacts',
    'insert or delete',
    `if tg_op = 'INSERT' then
       update search_documents set contact_text = ${PG_CONTACT_TEXT('new.folder_id')}
       where id = new.folder_id;
     else
       update search_documents set contact_text = ${PG_CONTACT_TEXT('old.folder_id')}
       where id = old.folder_id;
     end if;`,
  ),
  ...pgTrigger(
    'search_contacts_au',
    'contacts',
    'update of name',
    `if old.name is distinct from new.name then
       update search_documents d set contact_text = ${PG_CONTACT_TEXT('d.id')}
       where d.id in (select folder_id from folder_contacts where contact_id = new.id);
     end if;`,
  ),
  `create or replace function search_contacts_bd() returns trigger language plpgsql as $fn$
   begin
     update search_documents d set contact_text = ${PG_CONTACT_TEXT('d.id', 'old.id')}
     where d.id in (select folder_id from folder_contacts where contact_id = old.id);
     return old;
   end $fn$`,
  `create trigger search_contacts_bd before delete on contacts for each row
     execute function search_contacts_bd()`,
  `insert into search_documents (${SEARCH_COLUMNS}) ${pgFolderSelect('f')} from folders f`,
  `insert into search_documents (${SEARCH_COLUMNS}) ${pgFileSelect('f')} from files f
     where f.status = 'ready'`,
  `analyze search_documents`,
];

const PG_DOWN = [
  ['search_folders_ai', 'folders'],
  ['search_folders_au', 'folders'],
  ['search_folders_ad', 'folders'],
  ['search_files_aiu', 'files'],
  ['search_files_ad', 'files'],
  ['search_applied_aiud', 'applied_indexes'],
  ['search_folder_contacts_aid', 'folder_contacts'],
  ['search_contacts_au', 'contacts'],
  ['search_contacts_bd', 'contacts'],
]
  .flatMap(([name, table]) => [
    `drop trigger if exists ${name} on ${table}`,
    `drop function if exists ${name}()`,
  ])
  .concat(['drop table if exists search_documents']);

export const search: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await runStatements(db, (await isPostgres(db)) ? PG_UP : SQLITE_UP);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await runStatements(db, (await isPostgres(db)) ? PG_DOWN : SQLITE_DOWN);
  },
};
