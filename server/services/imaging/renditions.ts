/**
 * Reading what document imaging derived (docs/architecture.md "Document imaging"): the PDF a
 * preview shows instead of an original no browser shows safely (office documents, HTML, SVG,
 * TIFF and other images made into pages).
 */
import { splitFileName } from '../../../common/names';
import { findRendition } from '../../repositories/renditions';
import type { Services } from '../context';

/** A stored PDF rendition. */
export interface PdfRendition {
  /** Its object key. */
  key: string;
  /** Its size in bytes. */
  size: number;
  /** The name it is served under: the original's without its extension, plus ".pdf". */
  name: string;
}

/**
 * The PDF rendition of a file's bytes, when one was derived and is stored.
 * @param file the file's name and sha256 (null: not fingerprinted yet, so no rendition)
 * @returns the rendition, or null
 */
export async function pdfRenditionOf(
  services: Pick<Services, 'db' | 'store'>,
  file: { name: string; sha256: string | null },
): Promise<PdfRendition | null> {
  if (!file.sha256) return null;
  const rendition = await findRendition(services.db, file.sha256);
  if (!rendition?.pdf_key) return null;
  const object = await services.store.head(rendition.pdf_key);
  if (!object) return null;
  return {
    key: rendition.pdf_key,
    size: object.size,
    name: `${splitFileName(file.name).base}.pdf`,
  };
}
