/**
 * What document imaging derived from a file's bytes (table `renditions`, migration 0020), one row
 * per original sha256, shared by every file (of any firm) holding the same bytes, and the pages of
 * its text that content search reads (`content_pages`, migration 0021).
 */
import type { NewRendition, RenditionRow } from '../db/schemaImaging';
import { chunked } from './organise';
import type { Executor } from './types';

/** The rendition of these bytes, if derived. */
export function findRendition(db: Executor, sha256: string): Promise<RenditionRow | undefined> {
  return db.selectFrom('renditions').selectAll().where('sha256', '=', sha256).executeTakeFirst();
}

/** Records (or replaces) the rendition of a sha256. */
export async function saveRendition(db: Executor, row: NewRendition): Promise<void> {
  await db
    .insertInto('renditions')
    .values(row)
    .onConflict((oc) =>
      oc.column('sha256').doUpdateSet({
        source_kind: row.source_kind,
        pdf_key: row.pdf_key,
        text_key: row.text_key,
        thumbnail_key: row.thumbnail_key,
        page_count: row.page_count,
        text_chars: row.text_chars,
        recognized: row.recognized,
        content_indexed: row.content_indexed ?? 0,
      }),
    )
    .execute();
}

/**
 * Forgets the rendition of a sha256 and the pages of its text (its objects are removed by the
 * caller), in one transaction: content search stops finding the bytes with the row.
 */
export async function deleteRendition(db: Executor, sha256: string): Promise<void> {
  const remove = async (trx: Executor) => {
    await trx.deleteFrom('content_pages').where('sha256', '=', sha256).execute();
    await trx.deleteFrom('renditions').where('sha256', '=', sha256).execute();
  };
  if (db.isTransaction) await remove(db);
  else await db.transaction().execute(remove);
}

/** Pages written per insert statement (3 parameters each). */
const PAGE_INSERT_CHUNK = 100;

/**
 * Replaces the text pages of a sha256 and marks its rendition's text as indexed
 * (`content_indexed` = 1). Run it in the transaction that records the rendition.
 * @param pages the non-blank pages, `page` from 1 (services/imaging/contentPages.ts)
 */
export async function replaceContentPages(
  db: Executor,
  sha256: string,
  pages: readonly { page: number; text: string }[],
): Promise<void> {
  await db.deleteFrom('content_pages').where('sha256', '=', sha256).execute();
  for (const part of chunked(pages, PAGE_INSERT_CHUNK)) {
    await db
      .insertInto('content_pages')
      .values(part.map(({ page, text }) => ({ sha256, page, text })))
      .execute();
  }
  await db
    .updateTable('renditions')
    .set({ content_indexed: 1 })
    .where('sha256', '=', sha256)
    .execute();
}

/** Up to `limit` renditions (sha256 order after `cursor`) with a text whose pages are not stored. */
export function listUnindexedRenditions(
  db: Executor,
  cursor: string,
  limit: number,
): Promise<RenditionRow[]> {
  return db
    .selectFrom('renditions')
    .selectAll()
    .where('content_indexed', '=', 0)
    .where('sha256', '>', cursor)
    .orderBy('sha256')
    .limit(limit)
    .execute();
}

/**
 * Of these sha256 values, those no file row (of any firm, any status) and no file version holds
 * any more (an older version keeps the derivatives of its bytes: its preview shows them).
 */
export async function unreferencedSha256(
  db: Executor,
  sha256s: readonly string[],
): Promise<string[]> {
  if (sha256s.length === 0) return [];
  const kept = new Set<string | null>();
  for (const part of chunked([...new Set(sha256s)])) {
    const held = await db
      .selectFrom('files')
      .select('sha256')
      .distinct()
      .where('sha256', 'in', part)
      .execute();
    for (const row of held) kept.add(row.sha256);
    const versions = await db
      .selectFrom('file_versions')
      .select('sha256')
      .distinct()
      .where('sha256', 'in', part)
      .execute();
    for (const row of versions) kept.add(row.sha256);
  }
  return [...new Set(sha256s)].filter((sha) => !kept.has(sha));
}

/** The distinct non-null sha256 of these files of a firm (any number of ids). */
export async function sha256OfFiles(
  db: Executor,
  databaseId: string,
  fileIds: readonly string[],
): Promise<string[]> {
  const found = new Set<string>();
  for (const part of chunked(fileIds)) {
    const rows = await db
      .selectFrom('files')
      .select('sha256')
      .where('database_id', '=', databaseId)
      .where('id', 'in', part)
      .where('sha256', 'is not', null)
      .execute();
    for (const row of rows) if (row.sha256) found.add(row.sha256);
  }
  return [...found];
}

/**
 * Up to `limit` recorded renditions (sha256 order after `cursor`) that no file and no file
 * version holds any more.
 */
export async function listOrphanRenditions(
  db: Executor,
  cursor: string,
  limit: number,
): Promise<RenditionRow[]> {
  return db
    .selectFrom('renditions')
    .selectAll()
    .where('sha256', '>', cursor)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('files')
            .select('files.id')
            .whereRef('files.sha256', '=', 'renditions.sha256'),
        ),
      ),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('file_versions')
            .select('file_versions.file_id')
            .whereRef('file_versions.sha256', '=', 'renditions.sha256'),
        ),
      ),
    )
    .orderBy('sha256')
    .limit(limit)
    .execute();
}

/**
 * Of these sha256 values, those whose thumbnail is recorded: one indexed `in` query per 500
 * values (a list page costs one), never one per row.
 * @param sha256s any number of values; nulls (files not fingerprinted yet) are skipped
 */
export async function sha256WithThumbnail(
  db: Executor,
  sha256s: readonly (string | null)[],
): Promise<Set<string>> {
  const wanted = [...new Set(sha256s.filter((sha): sha is string => sha !== null))];
  const found = new Set<string>();
  for (const part of chunked(wanted)) {
    const rows = await db
      .selectFrom('renditions')
      .select('sha256')
      .where('sha256', 'in', part)
      .where('thumbnail_key', 'is not', null)
      .execute();
    for (const row of rows) found.add(row.sha256);
  }
  return found;
}
