/**
 * The external tools of document imaging and the messages naming a missing one (server and the
 * administrator's status page), which files imaging derives from (the server queues them, the
 * client's viewer offers their PDF rendition), and the rendition route's answer
 * (docs/architecture.md "Document imaging").
 */
import { FILE_KIND_EXTENSIONS, previewKind, type PreviewKind } from './files';

/** An external program imaging runs. */
export interface ToolSpec {
  /** The executable looked up on PATH. */
  command: string;
  /** What it is, for people ("LibreOffice"). */
  label: string;
  /** What imaging uses it for. */
  purpose: string;
  /** The Debian packages that provide it. */
  packages: string[];
}

/** Every tool imaging runs. */
export const IMAGING_TOOLS: readonly ToolSpec[] = [
  {
    command: 'soffice',
    label: 'LibreOffice',
    purpose: 'PDF renditions of office documents, HTML, SVG and other images',
    packages: [
      'libreoffice-writer-nogui',
      'libreoffice-calc-nogui',
      'libreoffice-impress-nogui',
      'libreoffice-draw-nogui',
    ],
  },
  {
    command: 'pdftotext',
    label: 'Poppler (pdftotext)',
    purpose: 'the text layer of PDFs',
    packages: ['poppler-utils'],
  },
  {
    command: 'pdftoppm',
    label: 'Poppler (pdftoppm)',
    purpose: 'page thumbnails',
    packages: ['poppler-utils'],
  },
  {
    command: 'ocrmypdf',
    label: 'OCRmyPDF',
    purpose: 'text recognition of scans and images, kept as searchable PDFs',
    packages: ['ocrmypdf'],
  },
  {
    command: 'tesseract',
    label: 'Tesseract',
    purpose: 'the text recognition engine OCRmyPDF runs',
    packages: ['tesseract-ocr', 'tesseract-ocr-eng'],
  },
  {
    command: 'ffmpeg',
    label: 'FFmpeg',
    purpose: 'thumbnails of videos (a frame)',
    packages: ['ffmpeg'],
  },
];

/** The Debian command installing packages. */
export function installCommand(packages: readonly string[]): string {
  return `apt-get install -y ${packages.join(' ')}`;
}

/** The message naming a missing tool and how to install it ("LibreOffice not found: …"). */
export function missingToolMessage(command: string): string {
  const tool = IMAGING_TOOLS.find((spec) => spec.command === command);
  if (!tool) return `${command} not found`;
  return `${tool.label} not found (needed for ${tool.purpose}): ${installCommand(tool.packages)}`;
}

/** Imaging jobs per state. */
export interface ImagingJobCountsDto {
  queued: number;
  running: number;
  done: number;
  failed: number;
}

/** A tool on the status page: its path, or the command installing it. */
export interface ImagingToolDto {
  command: string;
  label: string;
  purpose: string;
  /** Where it was found, or null when missing. */
  path: string | null;
  /** The Debian command installing it when missing, else null. */
  install: string | null;
}

/** A job that gave up, with its reason. */
export interface ImagingFailedJobDto {
  /** The job's id (POST /api/rest/private/imaging/jobs/{id}/retry). */
  job_id: string;
  file_id: string;
  /** The file's name, for people. */
  file_name: string;
  attempts: number;
  reason: string;
  /** ISO time it gave up. */
  failed_at: string;
}

/** GET /api/rest/private/imaging/status (administrators). */
export interface ImagingStatusDto {
  tools: ImagingToolDto[];
  /** OCR_LANGUAGES Tesseract has no data for. */
  missing_languages: string[];
  /** The command installing them, or null. */
  install_languages: string | null;
  /** Jobs run at once by this instance (IMAGING_CONCURRENCY). */
  concurrency: number;
  /** The firm's jobs per state. */
  jobs: ImagingJobCountsDto;
  /** The firm's most recent jobs that gave up (at most 20), newest first. */
  failed: ImagingFailedJobDto[];
}

/**
 * Where a file's derivation is: 'unsupported' (a format imaging does not handle), 'waiting' (not
 * queued yet: the start-up backfill queues it), a job's state, or 'done' once stored.
 */
export type RenditionState = 'unsupported' | 'waiting' | 'queued' | 'running' | 'done' | 'failed';

/** GET /api/rest/files/:id/rendition: what document imaging derived from a file, or why not. */
export interface FileRenditionDto {
  state: RenditionState;
  /** The file's derivation job, or null when it has none (administrators retry a failed one). */
  job_id: string | null;
  /**
   * Why the last attempt failed (for a missing tool: what is missing and the command installing
   * it), or null.
   */
  reason: string | null;
  /** Attempts made so far. */
  attempts: number;
  /** A PDF rendition is stored (preview and print serve it). */
  pdf: boolean;
  /** The text is stored. */
  text: boolean;
  /** A first-page thumbnail is stored. */
  thumbnail: boolean;
  page_count: number | null;
  /** The text came from recognition (OCR). */
  recognized: boolean;
}

/**
 * How long a browser may keep a thumbnail without asking again, in seconds (`Cache-Control:
 * private, max-age`). A file's bytes never change under its id, so neither does its thumbnail; the
 * limit bounds how long a user whose access ended still sees a cached one.
 */
export const THUMBNAIL_MAX_AGE_SECONDS = 3600;

/** Messages of the thumbnail and retry routes and of the client's imaging views. */
export const IMAGING_MESSAGES = {
  /** 404 of GET files/{id}/thumbnail before the first page was rendered (or for no such format). */
  noThumbnail: 'This file has no thumbnail yet.',
  /** 404 of POST imaging/jobs/{id}/retry for a job not of the session's firm. */
  jobNotFound: 'This imaging job was not found.',
  /** 409 of POST imaging/jobs/{id}/retry for a job that has not given up. */
  jobNotFailed: 'Only a job that failed can be retried.',
} as const;

/**
 * How a file's derivatives are made:
 * - 'pdf': the text layer by pdftotext; recognition (OCRmyPDF) when the PDF has next to none.
 * - 'office': a PDF rendition by LibreOffice (documents, spreadsheets, presentations, RTF, CSV,
 *   EPUB, and HTML and SVG, which are never served inline because they can carry scripts), then
 *   its text layer.
 * - 'video': a thumbnail only, from a frame (FFmpeg); no PDF, no text.
 * - 'image': a searchable PDF by recognition (TIFF and other rasters become pages the browser can
 *   show), its text.
 */
export type DerivationPlan = 'pdf' | 'office' | 'image' | 'video';

/** Extensions LibreOffice turns into a PDF rendition. */
const OFFICE_EXTENSIONS: ReadonlySet<string> = new Set([
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
const OCR_IMAGE_EXTENSIONS: ReadonlySet<string> = new Set(['tif', 'tiff', 'png', 'jpg', 'jpeg']);

/** Rasters LibreOffice turns into a one-page PDF first (recognition does not read them). */
const OTHER_IMAGE_EXTENSIONS: ReadonlySet<string> = new Set(['bmp', 'gif', 'webp']);

/** Videos the app accepts (the movie icon kind's extensions, and Ogg video): thumbnailed by a frame. */
export const VIDEO_EXTENSIONS: ReadonlySet<string> = new Set([
  ...FILE_KIND_EXTENSIONS.movie,
  'ogv',
]);

/**
 * The plan for a file, from its extension (any case, without the dot) or else its content type.
 * @returns null for a format imaging does not handle (no job is queued, no rendition is made)
 */
export function derivationPlan(extension: string, contentType: string): DerivationPlan | null {
  const ext = extension.toLowerCase();
  const type = (contentType.toLowerCase().split(';')[0] ?? '').trim();
  if (ext === 'pdf' || type === 'application/pdf') return 'pdf';
  if (OFFICE_EXTENSIONS.has(ext)) return 'office';
  if (OCR_IMAGE_EXTENSIONS.has(ext) || OTHER_IMAGE_EXTENSIONS.has(ext)) return 'image';
  if (VIDEO_EXTENSIONS.has(ext)) return 'video';
  return null;
}

/**
 * Whether document imaging makes a first-page thumbnail for a file of this type (it has a
 * {@link derivationPlan}): a list showing such a file without one asks until it is made.
 */
export function makesThumbnail(extension: string, contentType: string): boolean {
  return derivationPlan(extension, contentType) !== null;
}

/**
 * Whether a listed file's thumbnail is still to come: its DTO says none is stored yet, and
 * imaging makes one for its type ({@link makesThumbnail}). Lists ask about such files until the
 * derivation settles.
 * @param file a file's extension, content type and the DTO's `thumbnail`
 */
export function awaitsThumbnail(file: {
  extension?: string | null;
  content_type?: string | null;
  thumbnail?: boolean;
}): boolean {
  return file.thumbnail !== true && makesThumbnail(file.extension ?? '', file.content_type ?? '');
}

/** Whether recognition reads this raster directly (else LibreOffice makes a PDF of it first). */
export function ocrReadsImage(extension: string): boolean {
  return OCR_IMAGE_EXTENSIONS.has(extension.toLowerCase());
}

/**
 * What the in-app viewer shows of a file: the original where the browser shows it safely (its
 * {@link previewKind}: PDF, image, video, audio, text), else 'rendition', the PDF document imaging
 * derives (office documents, HTML, SVG, TIFF…), which `/preview` serves once stored.
 */
export type ViewerContent = PreviewKind | 'rendition';

/**
 * How the viewer shows a file (docs/architecture.md "Document imaging").
 * @param extension the file's extension, any case, without the dot
 * @param contentType the file's content type
 * @returns null when it has no preview at all (the viewer offers the download)
 */
export function viewerContent(extension: string, contentType: string): ViewerContent | null {
  const inline = previewKind(contentType);
  if (inline) return inline;
  const plan = derivationPlan(extension, contentType);
  // A video's derivation is its thumbnail only: one the browser does not play has no preview.
  return plan === null || plan === 'video' ? null : 'rendition';
}

/** Whether a file can be opened in the viewer ({@link viewerContent} is not null). */
export function isViewable(extension: string, contentType: string): boolean {
  return viewerContent(extension, contentType) !== null;
}

/** What the in-app viewer says (its states; docs/architecture.md "Document imaging"). */
export const VIEWER_MESSAGES = {
  /** While the PDF rendition is being made. */
  preparing: 'Preparing preview…',
  /** The rendition's steps, by state. */
  waiting: 'Waiting to be converted',
  queued: 'Queued for conversion',
  running: 'Converting',
  /** A file of a type nothing can show. */
  unsupported: 'No preview for this file type',
  /** The derivation gave up (followed by its reason). */
  failed: 'The preview could not be made.',
  /** The derivation finished without a PDF. */
  noRendition: 'No preview was made for this file.',
  /** The file or its state could not be read (followed by the reason). */
  loadFailed: 'The file could not be opened.',
  /** pdf.js could not read the document. */
  documentFailed: 'The document could not be shown.',
  /** Find in document found nothing. */
  noMatches: 'No matches',
  /** A text file longer than the viewer reads. */
  textTruncated: 'Only the beginning of this file is shown. Download it to read it all.',
} as const;
