/**
 * The derivation job (docs/architecture.md "Document imaging"): from a recorded file's bytes, a
 * PDF rendition where the original is not one the browser shows safely, the text, and a
 * first-page thumbnail (of a video: a frame, and nothing else), stored beside the original under keys of its sha256
 * (`renditions/<sha256>/pdf`, `/text`, `/thumbnail`) and recorded in `renditions`, with the
 * text's pages in `content_pages` for content search. Bytes already
 * derived (a copy, a re-upload, the same file in another firm) cost nothing. The work happens in a
 * temporary folder, in child processes (runner.ts); the original is streamed out of the store.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { JobRow } from '@server/db/schemaImaging';
import { isoAt } from '@server/ids';
import { findFile, setMissingSha256 } from '@server/repositories/files';
import { findRendition, replaceContentPages, saveRendition } from '@server/repositories/renditions';
import type { Services } from '../context';
import { contentPagesOf, indexStoredText } from './contentPages';
import { derivationPlan, ocrReadsImage, pngHasTransparency, type DerivationPlan } from './formats';
import { recognize } from './ocr';
import { convertToPdf } from './office';
import { looksScanned, pdfText, thumbnail, type PdfText } from './pdfText';
import type { RunOptions } from './runner';
import { videoThumbnail } from './video';
import { PermanentJobError, type JobHandler } from './worker';

/** Largest derived object stored, in bytes (a searchable PDF of a long scan can be large). */
export const MAX_DERIVED_BYTES = 2 * 1024 * 1024 * 1024;

/** The object keys of the derivatives of some bytes. */
export function renditionKeys(sha256: string): { pdf: string; text: string; thumbnail: string } {
  const base = `renditions/${sha256}`;
  return { pdf: `${base}/pdf`, text: `${base}/text`, thumbnail: `${base}/thumbnail` };
}

/** The reason kept when a file's object is gone. */
export const MISSING_OBJECT_REASON = "The file's stored object is missing.";

/** What the tools made, as paths in the work folder. */
export interface Derived {
  /**
   * The PDF to show instead of the original, or null when the original is a PDF to show (or a
   * video).
   */
  pdf: string | null;
  /** The text, or null for a video (no text object is stored). */
  text: PdfText | null;
  /** The first page's PNG (a video's frame), or null for a video without a picture. */
  thumbnail: string | null;
  /** Whether the text came from recognition. */
  recognized: boolean;
}

/** The extension the work copy of the original gets (tools choose their reader by it). */
function workExtension(extension: string): string {
  return /^[a-z0-9]{1,10}$/.test(extension) ? extension : 'bin';
}

/**
 * Runs the tools of a plan on `input` in `dir`.
 * @throws PermanentJobError for input no tool can read or a missing tool; other errors to retry
 */
export async function deriveFrom(
  plan: DerivationPlan,
  input: string,
  extension: string,
  dir: string,
  languages: readonly string[],
  options: RunOptions,
): Promise<Derived> {
  if (plan === 'video') {
    const frame = await videoThumbnail(input, extension, dir, options);
    return { pdf: null, text: null, thumbnail: frame, recognized: false };
  }
  const textOf = (pdf: string, name: string) => pdfText(pdf, path.join(dir, name), options);
  let pdf: string | null;
  let text: PdfText;
  let recognized = false;
  if (plan === 'pdf') {
    text = await textOf(input, 'original.txt');
    pdf = null;
    if (looksScanned(text)) {
      pdf = await recognize(input, dir, languages, options);
      text = await textOf(pdf, 'recognized.txt');
      recognized = true;
    }
  } else if (plan === 'office') {
    pdf = await convertToPdf(input, dir, options);
    text = await textOf(pdf, 'converted.txt');
  } else {
    const direct = ocrReadsImage(extension) && !pngHasTransparency(await fileHead(input));
    const pages = direct ? input : await convertToPdf(input, dir, options);
    pdf = await recognize(pages, dir, languages, options);
    text = await textOf(pdf, 'recognized.txt');
    recognized = true;
  }
  return { pdf, text, thumbnail: await thumbnail(pdf ?? input, dir, options), recognized };
}

/** The first 64 KiB of a work file (less when it is shorter). */
async function fileHead(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Stores a work file as an object. */
async function storeFile(services: Services, key: string, file: string): Promise<void> {
  await services.store.write(key, createReadStream(file), MAX_DERIVED_BYTES);
}

/**
 * The handler of 'derive' jobs. A file deleted or no longer derivable since it was queued is done
 * with nothing to do.
 * @returns the handler, answering the file's sha256
 */
export function deriveHandler(services: Services): JobHandler {
  return async (job: JobRow, signal: AbortSignal) => {
    const file = await findFile(services.db, job.database_id, job.file_id);
    if (!file || file.status !== 'ready') return null;
    const plan = derivationPlan(file.extension, file.content_type);
    if (!plan) return null;
    // The row's sha256 first: it describes the object the row names (the newest version), where
    // the job's may be an older version's.
    const sha256 = file.sha256 ?? job.sha256 ?? (await services.store.checksum(file.storage_key));
    if (!sha256) throw new PermanentJobError(MISSING_OBJECT_REASON);
    // Content search finds a file by its row's sha256: a file not fingerprinted yet gets it now.
    if (!file.sha256) {
      await setMissingSha256(services.db, file.database_id, file.id, file.storage_key, sha256);
    }
    const existing = await findRendition(services.db, sha256);
    if (existing) {
      // Derived before content search kept pages (the start-up step may not have reached it).
      if (!existing.content_indexed) await indexStoredText(services, existing);
      return sha256;
    }
    const workRoot = path.join(os.tmpdir(), 'dossier-imaging');
    await mkdir(workRoot, { recursive: true });
    const dir = await mkdtemp(path.join(workRoot, 'job-'));
    try {
      const input = path.join(dir, `original.${workExtension(file.extension)}`);
      await pipeline(services.store.read(file.storage_key), createWriteStream(input));
      const derived = await deriveFrom(
        plan,
        input,
        file.extension,
        dir,
        services.config.ocrLanguages,
        { timeoutMs: services.config.imagingTimeoutMs, signal },
      );
      const keys = renditionKeys(sha256);
      if (derived.text) {
        const textFile = path.join(dir, 'final.txt');
        await writeFile(textFile, derived.text.text);
        await storeFile(services, keys.text, textFile);
      }
      if (derived.thumbnail) await storeFile(services, keys.thumbnail, derived.thumbnail);
      if (derived.pdf) await storeFile(services, keys.pdf, derived.pdf);
      // The row and the pages of its text in one transaction: content search finds the bytes
      // exactly when their rendition is recorded.
      const pages = derived.text ? contentPagesOf(derived.text.text) : [];
      await services.db.transaction().execute(async (trx) => {
        await saveRendition(trx, {
          sha256,
          source_kind: plan,
          pdf_key: derived.pdf ? keys.pdf : null,
          text_key: derived.text ? keys.text : null,
          thumbnail_key: derived.thumbnail ? keys.thumbnail : null,
          page_count: derived.text?.pages ?? null,
          text_chars: derived.text?.visibleChars ?? 0,
          recognized: derived.recognized ? 1 : 0,
          created_at: isoAt(services.clock),
        });
        await replaceContentPages(trx, sha256, pages);
      });
      return sha256;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
}
