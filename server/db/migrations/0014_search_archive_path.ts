/**
 * Search documents on archive and restore (bulk archive of 10,000 files under 1 s):
 * migration 0013 rewrote a ready file's whole search document (an upsert reading its applied
 * values) on every update of the file, so archiving or restoring 10,000 files paid 10,000 upserts.
 * An update that only archives or restores a file changes one thing in its document, `archived`,
 * so the file triggers are split by the columns an update names:
 * - `update of name, name_key, folder_id, extension, status, created_at`: the upsert (or removal
 *   for a file no longer ready), as before;
 * - `update of archived_at` of a file that stays ready: `archived` alone, and only when it flips.
 * An update naming both runs both, with the same end state as before. Moves still rewrite the
 * document (its scope changes). On PostgreSQL the archived path is one set-based UPDATE per
 * statement over its transition tables (a row trigger cost a PL/pgSQL call per file).
 *
 * On SQLite the name and stem B-trees lose their `archived` column ((database_id, name_key) and
 * (database_id, stem_key)): SQLite rewrites only the index entries whose columns change, so
 * flipping `archived` then touches no index entry, which was most of the remaining cost (measured
 * on 10,000 files of a 100,000-file folder: the archive update 520 ms with the flag indexed,
 * 220 ms without; 235 ms with no search trigger at all). Searches still filter on `archived`
 * after the index range. PostgreSQL keeps the flag in its B-trees: a non-HOT update there writes
 * a new entry in every index whatever changed, so dropping it saved nothing, and autocomplete
 * ran up to 2.2× slower without it (p95 over 1M documents: 13.6 ms against 6.1 ms).
 */
import { type Kysely, type Migration } from 'kysely';
import { isPostgres, runStatements } from './dialect';
import { SEARCH_COLUMNS, SQLITE_UPSERT_SET, sqliteFileSelect } from './0013_search';

/** The file columns a search document is built from, but `archived_at`. */
const DOCUMENT_COLUMNS = 'name, name_key, folder_id, extension, status, created_at';

/** SQLite: 0013's `search_files_au_ready` body, the upsert of the file's whole document. */
const SQLITE_UPSERT_BODY = `begin
  insert into search_documents (${SEARCH_COLUMNS}) ${sqliteFileSelect('new')} where true
  ${SQLITE_UPSERT_SET};
end`;

/** The name and stem B-trees with (`true`) or without (`false`) the archived flag. */
function nameIndexes(withArchived: boolean): string[] {
  const flag = withArchived ? 'archived, ' : '';
  return [
    `drop index search_documents_name`,
    `drop index search_documents_stem`,
    `create index search_documents_name on search_documents (database_id, ${flag}name_key)`,
    `create index search_documents_stem on search_documents (database_id, ${flag}stem_key)`,
  ];
}

export const searchArchivePath: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    if (await isPostgres(db)) {
      // 0013's function stays as it is; only the events that call it narrow.
      await runStatements(db, [
        `drop trigger search_files_aiu on files`,
        `create trigger search_files_aiu after insert or update of ${DOCUMENT_COLUMNS} on files
           for each row execute function search_files_aiu()`,
        // One set-based update per statement (a transition table), not one call per row.
        `create or replace function search_files_archived() returns trigger language plpgsql as $fn$
         begin
           update search_documents d
           set archived = case when n.archived_at is null then 0 else 1 end
           from new_rows n join old_rows o on o.id = n.id
           where d.id = n.id and n.status = 'ready' and o.status = 'ready'
             and (o.archived_at is null) <> (n.archived_at is null);
           return null;
         end $fn$`,
        `create trigger search_files_archived after update on files
           referencing old table as old_rows new table as new_rows
           for each statement execute function search_files_archived()`,
      ]);
      return;
    }
    await runStatements(db, nameIndexes(false));
    await runStatements(db, [
      `drop trigger search_files_au_ready`,
      `create trigger search_files_au_ready after update of ${DOCUMENT_COLUMNS} on files
         when new.status = 'ready' ${SQLITE_UPSERT_BODY}`,
      `create trigger search_files_au_archived after update of archived_at on files
         when new.status = 'ready' and old.status = 'ready'
           and (old.archived_at is null) <> (new.archived_at is null) begin
         update search_documents set archived = new.archived_at is not null where id = new.id;
       end`,
    ]);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    if (await isPostgres(db)) {
      await runStatements(db, [
        `drop trigger if exists search_files_archived on files`,
        `drop function if exists search_files_archived()`,
        `drop trigger search_files_aiu on files`,
        `create trigger search_files_aiu after insert or update on files
           for each row execute function search_files_aiu()`,
      ]);
      return;
    }
    await runStatements(db, nameIndexes(true));
    await runStatements(db, [
      `drop trigger if exists search_files_au_archived`,
      `drop trigger search_files_au_ready`,
      `create trigger search_files_au_ready after update on files when new.status = 'ready' ${SQLITE_UPSERT_BODY}`,
    ]);
  },
};
