/**
 * What document imaging derived from a file's bytes (table `renditions`, migration 0018), one row
 * per original sha256, shared by every file (of any firm) holding the same bytes.
 */
import type { RenditionRow } from '../db/schemaImaging';
import type { Executor } from './types';

/** The rendition of these bytes, if derived. */
export function findRendition(db: Executor, sha256: string): Promise<RenditionRow | undefined> {
  return db.selectFrom('renditions').selectAll().where('sha256', '=', sha256).executeTakeFirst();
}

/** Records (or replaces) the rendition of a sha256. */
export async function saveRendition(db: Executor, row: RenditionRow): Promise<void> {
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
      }),
    )
    .execute();
}

/** Forgets the rendition of a sha256 (its objects are removed by the caller). */
export async function deleteRendition(db: Executor, sha256: string): Promise<void> {
  await db.deleteFrom('renditions').where('sha256', '=', sha256).execute();
}

/** Of these sha256 values, those no file row (of any firm, any status) holds any more. */
export async function unreferencedSha256(
  db: Executor,
  sha256s: readonly string[],
): Promise<string[]> {
  if (sha256s.length === 0) return [];
  const held = await db
    .selectFrom('files')
    .select('sha256')
    .distinct()
    .where('sha256', 'in', [...sha256s])
    .execute();
  const kept = new Set(held.map((row) => row.sha256));
  return [...new Set(sha256s)].filter((sha) => !kept.has(sha));
}
