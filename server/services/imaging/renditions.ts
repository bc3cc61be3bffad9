/**
 * Reading what document imaging derived (docs/architecture.md "Document imaging"): the PDF a
 * preview shows instead of an original no browser shows safely (office documents, HTML, SVG,
 * TIFF and other images made into pages), and where a file's derivation is (for the firm's
 * readers here; for a guest through a share in sharingAccess.ts `sharedFileRendition`).
 */
import type { FileRenditionDto } from '@common/imaging';
import type { FileRow } from '@server/db/schema';
import { splitFileName } from '@common/names';
import { findJobForFile } from '@server/repositories/jobs';
import { findRendition } from '@server/repositories/renditions';
import { accessibleFile } from '../access';
import type { RequestContext, Services } from '../context';
import { derivationPlan } from './formats';

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

/**
 * What document imaging derived from a file visible to the session, or where its derivation is
 * and why it failed (a missing tool is named with its install command).
 * @throws AppError 404 when the file is not visible to the session
 */
export async function fileRendition(
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<FileRenditionDto> {
  const file = await accessibleFile(services.db, ctx, id, 'read', { allowArchived: true });
  return renditionStateOf(services, file);
}

/**
 * What document imaging derived from a file the caller may read (access checked by the caller),
 * or where its derivation is and why it failed.
 * @param file the file's id, sha256 (null before it was fingerprinted), extension and type
 */
export async function renditionStateOf(
  services: Pick<Services, 'db'>,
  file: Pick<FileRow, 'id' | 'sha256' | 'extension' | 'content_type'>,
): Promise<FileRenditionDto> {
  const job = await findJobForFile(services.db, 'derive', file.id);
  const sha256 = file.sha256 ?? job?.sha256 ?? null;
  const rendition = sha256 ? await findRendition(services.db, sha256) : undefined;
  const none = { pdf: false, text: false, thumbnail: false, page_count: null, recognized: false };
  const attempts = job?.attempts ?? 0;
  if (rendition) {
    return {
      state: 'done',
      job_id: job?.id ?? null,
      reason: null,
      attempts,
      pdf: rendition.pdf_key !== null,
      text: rendition.text_key !== null,
      thumbnail: rendition.thumbnail_key !== null,
      page_count: rendition.page_count,
      recognized: rendition.recognized === 1,
    };
  }
  if (!derivationPlan(file.extension, file.content_type)) {
    return { state: 'unsupported', job_id: job?.id ?? null, reason: null, attempts, ...none };
  }
  if (!job) return { state: 'waiting', job_id: null, reason: null, attempts, ...none };
  // A done job without a stored rendition: its derivatives were removed; it waits to run again.
  const state = job.state === 'done' ? 'waiting' : job.state;
  return { state, job_id: job.id, reason: job.last_error, attempts, ...none };
}
