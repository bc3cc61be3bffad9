/**
 * The tables of document imaging (migrations 0020 and 0021; docs/architecture.md "Document
 * imaging"): the durable job queue, the derivatives recorded per original sha256 and the pages of
 * their text that content search reads.
 */
import type { Generated, Insertable, Selectable } from 'kysely';

/** Where a job is: waiting (maybe until `run_after`), held by a worker, finished, given up. */
export type JobState = 'queued' | 'running' | 'done' | 'failed';

/** The kinds of job; 'derive' makes a file's rendition, text and thumbnail. */
export type JobKind = 'derive';

/** One job about one file. */
export interface JobsTable {
  id: string;
  kind: JobKind;
  database_id: string;
  file_id: string;
  /** The file's sha256 when known at enqueue time (else the job asks the store). */
  sha256: string | null;
  state: JobState;
  /** Attempts started so far (a claim counts one). */
  attempts: number;
  /** ISO time before which a queued job is not claimed (the backoff of a retry). */
  run_after: string;
  /** The worker holding a running job. */
  locked_by: string | null;
  /** ISO time after which a running job counts as abandoned and may be claimed again. */
  lease_until: string | null;
  /** Why the last attempt failed (kept when the job gives up). */
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/** What the file's bytes yielded; every key is an object-store key under renditions/<sha256>/. */
export interface RenditionsTable {
  /** The original's hex sha256. */
  sha256: string;
  /** How it was derived: 'pdf', 'office', 'image', 'video' (a thumbnail only). */
  source_kind: string;
  /** The PDF to show: converted (office), made searchable (scans), or null (the original is one). */
  pdf_key: string | null;
  /** The extracted or recognised text (UTF-8). */
  text_key: string | null;
  /** PNG of the first page (of a video: a frame); null for a video without a picture. */
  thumbnail_key: string | null;
  page_count: number | null;
  /** Characters of text. */
  text_chars: number;
  /** 1 when the text came from recognition (OCR). */
  recognized: number;
  created_at: string;
  /** 1 once the text's pages are in `content_pages` (0 for renditions derived before 0021). */
  content_indexed: Generated<number>;
}

/**
 * One non-blank page of the text of some bytes (migration 0021), for content search. SQLite also
 * has `rid` (the FTS5 rowid) and PostgreSQL a generated `tsv`; neither is read through Kysely.
 */
export interface ContentPagesTable {
  /** The original's hex sha256 (a rendition's). */
  sha256: string;
  /** Page number, from 1 (pdftotext's form feeds). */
  page: number;
  /** The page's text, control characters replaced by spaces, at most CONTENT_PAGE_MAX_CHARS. */
  text: string;
}

/** The imaging tables, merged into DB. */
export interface ImagingTables {
  jobs: JobsTable;
  renditions: RenditionsTable;
  content_pages: ContentPagesTable;
}

export type JobRow = Selectable<JobsTable>;
export type RenditionRow = Selectable<RenditionsTable>;
/** A rendition as recorded (`content_indexed` defaults to 0). */
export type NewRendition = Insertable<RenditionsTable>;
