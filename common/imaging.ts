/**
 * The external tools of document imaging and the messages naming a missing one (server and the
 * administrator's status page; docs/architecture.md "Document imaging").
 */

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
