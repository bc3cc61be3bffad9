/**
 * The text layer of a PDF and its first-page thumbnail, by Poppler's pdftotext and pdftoppm
 * (docs/architecture.md "Document imaging").
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PermanentJobError } from './worker';
import { errorTail, runTool, type RunOptions } from './runner';

/** A PDF's text, as pdftotext read it. */
export interface PdfText {
  /** UTF-8 text, pages separated by form feeds. */
  text: string;
  /** Pages (form feeds pdftotext wrote, one per page). */
  pages: number;
  /** Characters other than white space. */
  visibleChars: number;
}

/** Fewer visible characters per page than this on average: the PDF is a scan (it gets OCR). */
export const SCAN_CHARS_PER_PAGE = 16;

/** Why no text can be derived from an encrypted PDF. */
export const PASSWORD_PDF_REASON =
  'The PDF is protected by a password: no text or preview can be derived from it.';

/**
 * Extracts a PDF's text layer into the file `out` and reads it.
 * @throws PermanentJobError for a password-protected or unreadable PDF; the runner's errors
 */
export async function pdfText(input: string, out: string, options: RunOptions): Promise<PdfText> {
  const result = await runTool('pdftotext', ['-enc', 'UTF-8', input, out], options);
  if (result.code !== 0) {
    if (/password/i.test(result.stderr)) throw new PermanentJobError(PASSWORD_PDF_REASON);
    throw new PermanentJobError(`pdftotext could not read the PDF: ${errorTail(result.stderr)}`);
  }
  const text = await readFile(out, 'utf8');
  const pages = Math.max(1, (text.match(/\f/g) ?? []).length);
  return { text, pages, visibleChars: text.replace(/\s+/g, '').length };
}

/** Whether a PDF's text is too little for its pages: a scan that needs recognition. */
export function looksScanned(text: PdfText): boolean {
  return text.visibleChars < SCAN_CHARS_PER_PAGE * text.pages;
}

/** Longest side of a thumbnail, in pixels. */
export const THUMBNAIL_PX = 320;

/**
 * Renders the first page of a PDF as a PNG of at most THUMBNAIL_PX a side into `dir`.
 * @returns the PNG's path
 * @throws Error when pdftoppm fails (retried); the runner's errors
 */
export async function thumbnail(input: string, dir: string, options: RunOptions): Promise<string> {
  const base = path.join(dir, 'thumbnail');
  const result = await runTool(
    'pdftoppm',
    ['-png', '-f', '1', '-l', '1', '-singlefile', '-scale-to', String(THUMBNAIL_PX), input, base],
    options,
  );
  if (result.code !== 0) {
    throw new Error(`pdftoppm could not render the first page: ${errorTail(result.stderr)}`);
  }
  return `${base}.png`;
}
