/**
 * The pages of a derived text that content search reads (docs/architecture.md "Document imaging",
 * table `content_pages` of migration 0021): the job writes them with the rendition, and a start-up
 * step reads them from the stored text of renditions derived before content search existed.
 */
import { text as streamText } from 'node:stream/consumers';
import type { RenditionRow } from '@server/db/schemaImaging';
import { listUnindexedRenditions, replaceContentPages } from '@server/repositories/renditions';
import type { Services } from '../context';

/**
 * Most characters kept of one page. A printed page holds far fewer; the cap bounds what one row
 * costs (PostgreSQL refuses a tsvector over 1 MB) when a converted sheet or a broken text layer
 * yields a page of noise.
 */
export const CONTENT_PAGE_MAX_CHARS = 100_000;

/** Control characters but tab and line breaks (PostgreSQL text refuses NUL). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** One page of text, numbered from 1. */
export interface ContentPage {
  page: number;
  text: string;
}

/**
 * Splits pdftotext's output into its pages (form feeds end each page), numbered from 1; blank
 * pages are left out, control characters become spaces and a page is cut at
 * {@link CONTENT_PAGE_MAX_CHARS} (never inside a surrogate pair).
 * @param text UTF-8 text, pages separated by form feeds
 * @returns the non-blank pages in order
 */
export function contentPagesOf(text: string): ContentPage[] {
  const pages: ContentPage[] = [];
  text.split('\f').forEach((raw, index) => {
    let clean = raw.replace(CONTROL, ' ');
    if (clean.length > CONTENT_PAGE_MAX_CHARS) {
      const code = clean.charCodeAt(CONTENT_PAGE_MAX_CHARS - 1);
      const end =
        code >= 0xd800 && code <= 0xdbff ? CONTENT_PAGE_MAX_CHARS - 1 : CONTENT_PAGE_MAX_CHARS;
      clean = clean.slice(0, end);
    }
    if (clean.trim() !== '') pages.push({ page: index + 1, text: clean });
  });
  return pages;
}

/**
 * Reads a rendition's stored text and writes its pages (marking it indexed), in one transaction.
 * A rendition without text, or whose text object is gone, is marked indexed with no pages: there
 * is nothing to search, and it must not be read again at every start.
 * @returns how many pages were written
 * @throws when the database fails, or the store fails otherwise than by a missing object
 */
export async function indexStoredText(
  services: Services,
  rendition: RenditionRow,
): Promise<number> {
  let pages: ContentPage[] = [];
  if (rendition.text_key && (await services.store.head(rendition.text_key))) {
    pages = contentPagesOf(await streamText(services.store.read(rendition.text_key)));
  }
  await services.db.transaction().execute(async (trx) => {
    await replaceContentPages(trx, rendition.sha256, pages);
  });
  return pages.length;
}

/** Renditions read per batch of {@link indexStoredTexts}. */
export const CONTENT_BACKFILL_BATCH = 100;

/**
 * Writes the pages of every rendition whose text is not indexed yet (derived before migration
 * 0021), batch by batch; run at start-up. Idempotent: a rendition indexed meanwhile (another
 * instance, its job) is rewritten with the same pages.
 * @returns how many renditions were indexed
 * @throws when the database or the store fails
 */
export async function indexStoredTexts(
  services: Services,
  batch = CONTENT_BACKFILL_BATCH,
): Promise<number> {
  let cursor = '';
  let indexed = 0;
  for (;;) {
    const rows = await listUnindexedRenditions(services.db, cursor, batch);
    for (const row of rows) await indexStoredText(services, row);
    indexed += rows.length;
    if (rows.length < batch) return indexed;
    cursor = rows[rows.length - 1]!.sha256;
  }
}
