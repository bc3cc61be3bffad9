/**
 * File versions (docs/architecture.md "File versions"): API shapes, messages and small helpers the
 * client and the server share. A file keeps its id through its versions; each version is an
 * immutable object numbered from 1, and the file's bytes are its newest version's. Times are ISO
 * 8601 UTC text; JSON is snake_case.
 */
import { formatMessage } from './messages';

/** One version of a file (GET REST/files/{id}/versions). */
export interface FileVersionDto {
  /** 1 for the first version; a new upload or a restore takes the next number. */
  number: number;
  /** Bytes. */
  size: number;
  /** Hex sha256 of the bytes, or null until the file is fingerprinted. */
  sha256: string | null;
  content_type: string;
  /** Who uploaded (or restored) it: user id and display name. */
  created_by: string;
  created_by_name: string;
  /** When it was recorded. */
  created_at: string;
  /** A restore: the number of the version it copies; else null. */
  restored_from: number | null;
  /** Whether it is the newest version (the file's bytes). */
  newest: boolean;
}

/** Answer of GET REST/files/{id}/versions: every version, newest first. */
export interface FileVersionsResponse {
  items: FileVersionDto[];
}

/** Answer of POST REST/files/{id}/versions/{n}/restore: the new newest version. */
export interface RestoreVersionResponse {
  /** The file's id (unchanged). */
  file_id: string;
  version: FileVersionDto;
}

/** Body of POST REST/files/conflicts: names about to be uploaded into a folder. */
export interface UploadConflictsRequest {
  folder_id: string;
  /** The picked names (at most {@link MAX_CONFLICT_NAMES}). */
  names: string[];
}

/** A picked name that a live file of the folder already has (case-insensitive). */
export interface UploadConflictDto {
  /** The name as sent. */
  name: string;
  /** The file of the folder with that name: what a new version would replace. */
  file_id: string;
  file_name: string;
}

/** Answer of POST REST/files/conflicts: the names that clash with a file, in the order sent. */
export interface UploadConflictsResponse {
  items: UploadConflictDto[];
}

/** Most names one conflicts request may ask about (the largest upload count allowed). */
export const MAX_CONFLICT_NAMES = 1000;

/** What the user chose for a picked file whose name exists in the folder. */
export type ConflictChoice = 'version' | 'keep_both' | 'skip';

/** Characters of a sha256 shown before the full value is asked for (hover, copy). */
const SHA256_SHORT_LENGTH = 12;

/**
 * A sha256 shortened for display: its first {@link SHA256_SHORT_LENGTH} characters and an
 * ellipsis; '' for none.
 * @param sha256 hex digest, or null before the file is fingerprinted
 */
export function shortSha256(sha256: string | null): string {
  if (!sha256) return '';
  return sha256.length > SHA256_SHORT_LENGTH ? `${sha256.slice(0, SHA256_SHORT_LENGTH)}…` : sha256;
}

/** User-facing messages of file versions. */
export const VERSION_MESSAGES = {
  versionNotFound: 'This version does not exist.',
  alreadyNewest: 'Version {number} is already the newest.',
  newestNotDeletable:
    'The newest version cannot be deleted. Restore an older version first, or archive the file.',
  otherFolder: 'A new version must be uploaded into the folder of the file it replaces.',
  otherExtension: 'A new version of "{file}" must be a .{extension} file.',
  targetChanged:
    '"{file}" was moved, archived or deleted while its new version was uploaded. Upload it again.',
  conflictTitle: 'Files already exist',
  conflictOne: '"{name}" already exists in this folder.',
  conflictMany: '{count} of the files already exist in this folder.',
  conflictHelp:
    'A new version replaces what the file shows and keeps its favorites, index values, contacts ' +
    'and shares; its earlier versions stay listed in its details. Keep both saves the upload ' +
    'under a numbered name.',
  uploadAsVersion: 'Upload as new version',
  keepBoth: 'Keep both',
  skip: 'Skip',
  restoreDone: 'Version {from} was restored as version {number}.',
  deleteDone: 'Version {number} was deleted.',
} as const;

/** "Version 2 is already the newest." */
export function alreadyNewestMessage(number: number): string {
  return formatMessage(VERSION_MESSAGES.alreadyNewest, { number });
}

/** 'A new version of "report.pdf" must be a .pdf file.' ('' extension: "a file without one"). */
export function otherExtensionMessage(fileName: string, extension: string): string {
  return formatMessage(VERSION_MESSAGES.otherExtension, { file: fileName, extension });
}

/** '"report.pdf" was moved, archived or deleted while its new version was uploaded. …' */
export function targetChangedMessage(fileName: string): string {
  return formatMessage(VERSION_MESSAGES.targetChanged, { file: fileName });
}
