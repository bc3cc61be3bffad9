/** The table of examiner's exports (migration 0028_examiner_exports). */
import type { Selectable } from 'kysely';

/**
 * One examiner's export an administrator asked for: its single-use download link (the token's
 * sha256 until the GET takes it), what it covers, and its progress while the zip streams, so the
 * client can show how far it got whichever instance serves the download.
 */
export interface ExaminerExportsTable {
  id: string;
  database_id: string;
  /** The administrator who asked for it; only they may download it and read its progress. */
  user_id: string;
  /** sha256 (hex) of the link's token; null once the download took it. */
  token_hash: string | null;
  /** JSON text: the ExaminerScopeDescription (common/examinerExport.ts). */
  scope: string;
  /** 'newest' or 'all'. */
  versions: string;
  file_name: string;
  /** ExaminerExportStatus without 'expired' (that one is read from `expires_at`). */
  status: string;
  /** ExaminerExportPhase while running, else null. */
  phase: string | null;
  /** bigint columns: read back as a number or a string. */
  files_total: number | string;
  bytes_total: number | string;
  events_total: number | string;
  files_done: number | string;
  bytes_done: number | string;
  events_done: number | string;
  created_at: string;
  /** When the link stops working. */
  expires_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** The history event that records the export (written before the first byte). */
  event_id: string | null;
  manifest_sha256: string | null;
  error: string | null;
}

/** An examiner_exports row as read. */
export type ExaminerExportRow = Selectable<ExaminerExportsTable>;

/** The table of examiner's exports, merged into DB (schema.ts). */
export interface ExaminerTables {
  examiner_exports: ExaminerExportsTable;
}
