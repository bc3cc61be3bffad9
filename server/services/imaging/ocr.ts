/**
 * Text recognition by OCRmyPDF and Tesseract (docs/architecture.md "Document imaging"): a scanned
 * PDF or an image becomes a searchable PDF (the page images with an invisible text layer), pages
 * turned upright (--rotate-pages) and straightened (--deskew); pages that already have text are
 * kept as they are (--skip-text). The languages are OCR_LANGUAGES.
 */
import path from 'node:path';
import { PASSWORD_PDF_REASON } from './pdfText';
import { PermanentJobError } from './worker';
import { errorTail, runTool, type RunOptions } from './runner';

/** The resolution assumed for an image that records none, in dots per inch. */
export const DEFAULT_IMAGE_DPI = 300;

/** OCRmyPDF's exit code for input it cannot read. */
const EXIT_BAD_INPUT = 2;
/** OCRmyPDF's exit code for an encrypted PDF. */
const EXIT_ENCRYPTED = 8;

/**
 * The environment recognition adds: one core per job. Tesseract would otherwise start a thread
 * per core (IMAGING_CONCURRENCY is what spreads work over the machine's cores).
 */
export const RECOGNITION_ENV: Readonly<Record<string, string>> = { OMP_THREAD_LIMIT: '1' };

/**
 * OCRmyPDF's arguments for recognising `input` into the searchable PDF `output`.
 * @param languages Tesseract language codes
 * @param extra arguments before the file names (a retry's `--image-dpi`)
 */
export function recognitionArgs(
  input: string,
  output: string,
  languages: readonly string[],
  extra: readonly string[] = [],
): string[] {
  return [
    '--rotate-pages',
    '--deskew',
    '--skip-text',
    '--output-type',
    'pdf',
    '--jobs',
    '1',
    '-l',
    languages.join('+'),
    ...extra,
    input,
    output,
  ];
}

/**
 * Recognises the text of a PDF or an image into a searchable PDF in `dir` (its text layer is
 * then read like any PDF's).
 * @returns the searchable PDF's path
 * @param languages Tesseract language codes
 * @throws PermanentJobError for input OCRmyPDF cannot read or an encrypted PDF; Error for other
 *   failures (retried); the runner's errors
 */
export async function recognize(
  input: string,
  dir: string,
  languages: readonly string[],
  options: RunOptions,
): Promise<string> {
  const pdf = path.join(dir, 'searchable.pdf');
  const args = (extra: string[]) => recognitionArgs(input, pdf, languages, extra);
  const single = { ...options, env: { ...options.env, ...RECOGNITION_ENV } };
  let result = await runTool('ocrmypdf', args([]), single);
  if (result.code === EXIT_BAD_INPUT && /image-dpi/i.test(result.stderr)) {
    result = await runTool('ocrmypdf', args(['--image-dpi', String(DEFAULT_IMAGE_DPI)]), single);
  }
  if (result.code === EXIT_ENCRYPTED) {
    throw new PermanentJobError(PASSWORD_PDF_REASON);
  }
  if (result.code === EXIT_BAD_INPUT) {
    throw new PermanentJobError(
      `Text recognition cannot read the file: ${errorTail(result.stderr)}`,
    );
  }
  if (result.code !== 0) {
    throw new Error(`OCRmyPDF failed (exit code ${result.code}): ${errorTail(result.stderr)}`);
  }
  return pdf;
}
