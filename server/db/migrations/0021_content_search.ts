/**
 * Content search (docs/architecture.md "Index fields, contacts and search", "Document imaging"):
 * the text document imaging derived from a file's bytes, one row per page, searchable.
 *
 * - `content_pages`: one row per non-blank page of the text of some bytes (`sha256`, `page` from
 *   1, `text`), written by the derive job in the transaction that records the rendition and removed
 *   with it. Keyed by the bytes, like the renditions: every file holding them (a copy, a
 *   re-upload, the same bytes in another firm) is found by them at once; which files, and whether
 *   the session may see them, is decided when searching (through `files.sha256` and
 *   `search_documents`), so no page is rewritten when files move, are archived or change hands.
 * - `renditions.content_indexed`: 1 once the rendition's text is in `content_pages` (the pages of
 *   renditions derived before this migration are read from the stored text objects by a start-up
 *   step, which a migration cannot do).
 *
 * Full text as in 0013: words are Unicode letters and digits, the query's words must all be on one
 * page, the last as a prefix.
 * - SQLite: FTS5 `content_fts` with external content `content_pages` (content_rowid `rid`, so the
 *   text is stored once), unicode61 with prefix indexes of 2 and 3 characters, kept in step by
 *   insert and delete triggers (pages are never updated, only replaced).
 * - PostgreSQL: a stored generated `tsv` column over the page's words and a GIN index.
 */
import { type Kysely, type Migration } from 'kysely';
import { isPostgres, runStatements } from './dialect';

const SQLITE_UP = [
  `create table content_pages (
     rid integer primary key,
     sha256 text not null,
     page integer not null,
     text text not null)`,
  `create unique index content_pages_sha256_page on content_pages (sha256, page)`,
  `create virtual table content_fts using fts5(text, content='content_pages', content_rowid='rid',
     tokenize='unicode61', prefix='2 3')`,
  `create trigger content_pages_ai after insert on content_pages begin
     insert into content_fts(rowid, text) values (new.rid, new.text);
   end`,
  `create trigger content_pages_ad after delete on content_pages begin
     insert into content_fts(content_fts, rowid, text) values ('delete', old.rid, old.text);
   end`,
  `alter table renditions add column content_indexed integer not null default 0`,
];

const SQLITE_DOWN = [
  `drop trigger if exists content_pages_ai`,
  `drop trigger if exists content_pages_ad`,
  `drop table if exists content_fts`,
  `drop table if exists content_pages`,
  `alter table renditions drop column content_indexed`,
];

const PG_UP = [
  `create table content_pages (
     sha256 text collate "C" not null,
     page integer not null,
     text text not null,
     tsv tsvector generated always as (to_tsvector('simple'::regconfig,
       regexp_replace(lower(text), '[^[:alnum:]]+', ' ', 'g'))) stored,
     primary key (sha256, page))`,
  // As search_documents_tsv: a small pending list, since every query scans it until merged.
  `create index content_pages_tsv on content_pages using gin (tsv)
     with (gin_pending_list_limit = 256)`,
  `alter table renditions add column content_indexed integer not null default 0`,
];

const PG_DOWN = [
  `drop table if exists content_pages`,
  `alter table renditions drop column if exists content_indexed`,
];

export const contentSearch: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await runStatements(db, (await isPostgres(db)) ? PG_UP : SQLITE_UP);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await runStatements(db, (await isPostgres(db)) ? PG_DOWN : SQLITE_DOWN);
  },
};
