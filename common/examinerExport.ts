/**
 * The examiner's export: an administrator hands a firm's records for a scope (a folder's tree, a
 * CRM contact's linked folders, a date range, or the whole firm) to an examiner as one zip of the
 * files, `index.csv`, `history.csv` and `manifest.json`, which `npm run history:verify -- --export
 * FILE.zip` (or sha256sum and the documented procedure, docs/examiner-export.md) checks.
 * Shapes shared by the server and the client; times are ISO 8601 UTC.
 */

/** What an export covers. */
export type ExaminerScope =
  /** A folder and everything below it. */
  | { kind: 'folder'; folder_id: string }
  /** The folders linked to a CRM contact, each with everything below it. */
  | { kind: 'contact'; contact_id: string }
  /**
   * Files created or changed in [start, end) and the history events of that range (firm-wide).
   * `end` is exclusive.
   */
  | { kind: 'date_range'; start: string; end: string }
  /** Every live file and the whole history of the firm. */
  | { kind: 'firm' };

/** The kinds of scope, in the order the client offers them. */
export const EXAMINER_SCOPE_KINDS = ['folder', 'contact', 'date_range', 'firm'] as const;

/** Which versions of each file the zip holds: the newest only, or every stored version. */
export type ExportVersions = 'newest' | 'all';

/** The versions choices. */
export const EXPORT_VERSIONS: readonly ExportVersions[] = ['newest', 'all'];

/** POST REST/examiner_exports body. `versions` defaults to 'newest'. */
export interface ExaminerExportRequest {
  scope: ExaminerScope;
  versions?: ExportVersions;
}

/** The scope as the export describes it (names resolved when the export was asked for). */
export type ExaminerScopeDescription =
  | { kind: 'folder'; folder_id: string; path: string }
  | { kind: 'contact'; contact_id: string; name: string; folders: { id: string; path: string }[] }
  | { kind: 'date_range'; start: string; end: string }
  | { kind: 'firm' };

/**
 * Where an export is: `ready` (its link not used yet), `running` (the zip is streaming), `done`,
 * `failed` (the stream broke off or the client went away), `expired` (the link was never used).
 */
export type ExaminerExportStatus = 'ready' | 'running' | 'done' | 'failed' | 'expired';

/** What the zip is writing while it runs. */
export type ExaminerExportPhase = 'files' | 'index' | 'history' | 'manifest';

/** One export, as POST REST/examiner_exports and GET REST/examiner_exports/{id} answer it. */
export interface ExaminerExportDto {
  id: string;
  status: ExaminerExportStatus;
  /** Only on `running`; null otherwise. */
  phase: ExaminerExportPhase | null;
  /**
   * `/api/rest/examiner_exports/zip/{token}`: a plain GET with the same session streams the zip,
   * once. Only in the POST's answer (the token is not stored); null elsewhere.
   */
  url: string | null;
  /** Until when the link may be used. */
  expires_at: string;
  /** The zip's file name. */
  file_name: string;
  scope: ExaminerScopeDescription;
  versions: ExportVersions;
  /** Counted when the export was asked for (files of the newest versions, their bytes, events). */
  files_total: number;
  bytes_total: number;
  events_total: number;
  /** Written so far. */
  files_done: number;
  bytes_done: number;
  events_done: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** sha256 (hex) of the zip's manifest.json, once done: give it to the examiner separately. */
  manifest_sha256: string | null;
  /** Why a failed export failed. */
  error: string | null;
}

/** What a finished export's manifest calls itself (`format`). */
export const EXAMINER_MANIFEST_FORMAT = 'dossier-examiner-export-v1';

/** The zip's documents beside the files. */
export const EXAMINER_DOCUMENTS = {
  index: 'index.csv',
  history: 'history.csv',
  manifest: 'manifest.json',
} as const;

/** The folder of the zip that holds the files at their folder paths. */
export const EXAMINER_FILES_DIR = 'files';

/** How long an export's download link may wait for its GET, in milliseconds. */
export const EXAMINER_LINK_TTL_MS = 5 * 60_000;

/** How often the client asks for a running export's progress, in milliseconds. */
export const EXAMINER_PROGRESS_POLL_MS = 1000;

/** User-facing messages of the export, worded for this product. */
export const EXAMINER_MESSAGES = {
  linkExpired:
    'This export link has expired or was already used. Start the export again from Dossier.',
  rootFolder: 'Choose a folder, or export the whole firm.',
  contactWithoutFolders: 'This contact is not linked to any folder: there is nothing to export.',
  invalidRange: 'The start of the range must be before its end.',
  invalidDate: 'The start and the end of the range must be dates and times.',
  abandoned: 'The download stopped before the export was complete.',
} as const;
