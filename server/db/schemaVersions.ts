/**
 * The table of file versions (migration 0026; docs/architecture.md "File versions"): one row per
 * version of a file, each an immutable object of its own. The file row mirrors the newest.
 */
import type { Insertable, Selectable } from 'kysely';

/** One version of a file. */
export interface FileVersionsTable {
  file_id: string;
  /** 1 for the first version, then one more than the newest at the time. */
  number: number;
  database_id: string;
  /** The version's own object key (`<database id>/<id>`), never shared with another version. */
  storage_key: string;
  /** Bytes. */
  size: number;
  /** Hex sha256 of the bytes, or null until the file is fingerprinted. */
  sha256: string | null;
  content_type: string;
  /** Who uploaded (or restored) it. */
  created_by: string;
  /** When it was recorded (ISO 8601 UTC). */
  created_at: string;
  /** The version a restore copied, or null (an upload). */
  restored_from: number | null;
  /** The pending upload it was recorded from (the upload's id), or null. */
  upload_id: string | null;
  /** That upload's batch and client key, or null. */
  upload_batch_id: string | null;
  upload_client_key: string | null;
}

/** The tables of file versions, merged into DB. */
export interface VersionTables {
  file_versions: FileVersionsTable;
}

export type FileVersionRow = Selectable<FileVersionsTable>;
export type NewFileVersion = Insertable<FileVersionsTable>;
