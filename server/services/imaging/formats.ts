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

/** The eight bytes every PNG starts with (RFC 2083 section 3.1). */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Whether the start of a PNG says it has transparency: colour type 4 (grey with alpha) or 6 (RGB
 * with alpha) in its IHDR chunk, or a `tRNS` chunk before the image data (RFC 2083 sections 4.1.1
 * and 4.2.1). Recognition refuses such images ("The input image has an alpha channel"), so they go
 * through LibreOffice, which lays them on a white page, first.
 * @param head the first bytes of the file (the chunks before IDAT; 64 KiB is plenty)
 * @returns false for anything that is not a PNG
 */
export function pngHasTransparency(head: Buffer): boolean {
  if (head.length < 33 || !head.subarray(0, 8).equals(PNG_SIGNATURE)) return false;
  const colourType = head[25];
  if (colourType === 4 || colourType === 6) return true;
  for (let at = 8; at + 8 <= head.length;) {
    const length = head.readUInt32BE(at);
    const type = head.toString('latin1', at + 4, at + 8);
    if (type === 'tRNS') return true;
    if (type === 'IDAT' || type === 'IEND') return false;
    at += 12 + length;
  }
  return false;
}
