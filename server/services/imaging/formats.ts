/**
 * Which files document imaging derives from, and how (docs/architecture.md "Document imaging").
 * - 'pdf': the text layer by pdftotext; recognition (OCRmyPDF) when the PDF has next to none.
 * - 'office': a PDF rendition by LibreOffice (documents, spreadsheets, presentations, RTF, CSV,
 *   EPUB, and HTML and SVG, which are never served inline because they can carry scripts), then
 *   its text layer.
 * - 'image': a searchable PDF by recognition (TIFF and other rasters become pages the browser can
 *   show), its text.
 */

/** How a file's derivatives are made. */
export type DerivationPlan = 'pdf' | 'office' | 'image';

const OFFICE_EXTENSIONS = new Set([
  'doc',
  'docx',
  'odt',
  'rtf',
  'xls',
  'xlsx',
  'ods',
  'csv',
  'ppt',
  'pptx',
  'odp',
  'html',
  'htm',
  'epub',
  'svg',
]);

/** Rasters recognition reads directly (OCRmyPDF's image input). */
const OCR_IMAGE_EXTENSIONS = new Set(['tif', 'tiff', 'png', 'jpg', 'jpeg']);

/** Rasters LibreOffice turns into a one-page PDF first (recognition does not read them). */
const OTHER_IMAGE_EXTENSIONS = new Set(['bmp', 'gif', 'webp']);

/**
 * The plan for a file, from its lowercased extension (without the dot) or else its content type.
 * @returns null for a format imaging does not handle (no job is queued)
 */
export function derivationPlan(extension: string, contentType: string): DerivationPlan | null {
  const ext = extension.toLowerCase();
  const type = contentType.toLowerCase().split(';')[0]!.trim();
  if (ext === 'pdf' || type === 'application/pdf') return 'pdf';
  if (OFFICE_EXTENSIONS.has(ext)) return 'office';
  if (OCR_IMAGE_EXTENSIONS.has(ext) || OTHER_IMAGE_EXTENSIONS.has(ext)) return 'image';
  return null;
}

/** Whether recognition reads this raster directly (else LibreOffice makes a PDF of it first). */
export function ocrReadsImage(extension: string): boolean {
  return OCR_IMAGE_EXTENSIONS.has(extension.toLowerCase());
}
