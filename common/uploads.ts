/**
 * Upload restrictions (SPEC section 5: "Upload restrictions cover max and min size, file count and
 * types; the product's own minimum size, count and types are not shown") and the checks that apply
 * them. The server reads its restrictions from configuration (server/config.ts), serves them at
 * GET /api/rest/files/restrictions and enforces them; the client checks the same rules with these
 * functions before anything is sent, so the user gets the messages at once.
 */
import {
  DEFAULT_MAX_FILES_PER_UPLOAD,
  MAX_FILE_SIZE_BYTES,
  MULTIPART_PART_BYTES,
  MULTIPART_THRESHOLD_BYTES,
} from './constants';
import { contentTypeFor } from './files';
import { formatSize } from './format';
import { MESSAGES, formatMessage } from './messages';
import { splitFileName } from './names';
import type { FileDto } from './entities';

/**
 * The restrictions of one upload, as the server serves them (snake_case JSON, sizes in bytes).
 * `allowed_file_types` holds extensions with a leading dot (".pdf"), exact content types
 * ("application/pdf") or wildcards ("image/*"); an empty list allows every type.
 */
export interface UploadRestrictions {
  /** Largest file in bytes (104857600, SPEC sections 5 and 9). */
  max_file_size: number;
  /** Smallest file in bytes; 0 accepts empty files. */
  min_file_size: number;
  /** Most files one upload may hold at a time ("You can only upload {n} file(s)."). */
  max_number_of_files: number;
  /** Allowed types; empty means any type. */
  allowed_file_types: string[];
  /** Files larger than this many bytes are sent as resumable multipart uploads. */
  multipart_threshold: number;
  /** Size of each multipart part in bytes (the last one may be smaller); at least 5 MiB. */
  part_size: number;
}

/** The defaults when nothing is configured (README "Configuration"). */
export const DEFAULT_UPLOAD_RESTRICTIONS: Readonly<UploadRestrictions> = Object.freeze({
  max_file_size: MAX_FILE_SIZE_BYTES,
  min_file_size: 0,
  max_number_of_files: DEFAULT_MAX_FILES_PER_UPLOAD,
  allowed_file_types: [],
  multipart_threshold: MULTIPART_THRESHOLD_BYTES,
  part_size: MULTIPART_PART_BYTES,
});

/**
 * Normalises one configured type: extensions are lowercased and get a leading dot ("PDF" and
 * ".pdf" give ".pdf"), content types are lowercased.
 *
 * @param type an extension or a content type, with or without wildcard
 * @returns the normalised entry, or '' for blank input
 */
export function normalizeAllowedType(type: string): string {
  const text = type.trim().toLowerCase();
  if (text === '') return '';
  if (text.includes('/')) return text;
  return text.startsWith('.') ? text : `.${text}`;
}

/**
 * Whether a file name is of an allowed type: its extension is listed, its content type (derived
 * from the extension, SPEC section 5) is listed, or a wildcard like "image/*" covers it.
 *
 * @param name the file name including its extension
 * @param allowed the allowed types (see {@link UploadRestrictions.allowed_file_types}); empty
 *   allows everything
 * @returns true when the file may be uploaded
 */
export function isAllowedFileType(name: string, allowed: readonly string[]): boolean {
  const types = allowed.map(normalizeAllowedType).filter((t) => t !== '');
  if (types.length === 0) return true;
  const { extension } = splitFileName(name.trim());
  const contentType = contentTypeFor(extension);
  return types.some((type) => {
    if (type.startsWith('.')) return extension !== '' && type === `.${extension}`;
    if (type.endsWith('/*')) return contentType.startsWith(type.slice(0, -1));
    return type === contentType;
  });
}

/**
 * The message refusing a file that is not of an allowed type, listing the allowed types.
 *
 * @param fileName the file name as shown to the user
 * @param allowed the allowed types, as configured
 * @returns e.g. "notes.exe is not an allowed file type. Allowed: .pdf, image/*"
 */
export function fileTypeMessage(fileName: string, allowed: readonly string[]): string {
  return formatMessage(MESSAGES.fileTypeNotAllowed, {
    file: fileName,
    types: allowed.map(normalizeAllowedType).filter(Boolean).join(', '),
  });
}

/**
 * The message refusing a file smaller than the minimum size (size in the spec's format).
 *
 * @param fileName the file name as shown to the user
 * @param minBytes the minimum size in bytes
 * @returns e.g. "empty.txt is smaller than the minimum allowed size of 0.1 KB"
 */
export function fileTooSmallMessage(fileName: string, minBytes: number): string {
  return formatMessage(MESSAGES.fileTooSmall, { file: fileName, size: formatSize(minBytes) });
}

/**
 * The message refusing files beyond the count restriction (SPEC section 8).
 *
 * @param max the most files one upload may hold
 * @returns "You can only upload {n} file(s)." with n filled in
 */
export function tooManyFilesMessage(max: number): string {
  return formatMessage(MESSAGES.tooManyFiles, { n: max });
}

/**
 * Checks one file's size and type against the restrictions; the name rules and the maximum size
 * are checked by `validateUploadFile` (common/files.ts) first. The first failing rule wins:
 * 1. the size under `min_file_size`: {@link fileTooSmallMessage};
 * 2. a type outside `allowed_file_types`: {@link fileTypeMessage}.
 *
 * @param file the file's name and size in bytes
 * @param restrictions the restrictions in force
 * @returns the message, or null when the file passes; never throws
 */
export function validateRestrictedFile(
  file: { name: string; size: number },
  restrictions: Pick<UploadRestrictions, 'min_file_size' | 'allowed_file_types'>,
): string | null {
  if (file.size < restrictions.min_file_size) {
    return fileTooSmallMessage(file.name, restrictions.min_file_size);
  }
  if (!isAllowedFileType(file.name, restrictions.allowed_file_types)) {
    return fileTypeMessage(file.name, restrictions.allowed_file_types);
  }
  return null;
}

/**
 * Whether a file of this size is sent as a multipart upload: strictly larger than the threshold
 * (an empty file never is).
 *
 * @param size the file size in bytes
 * @param restrictions the threshold in force
 */
export function usesMultipart(
  size: number,
  restrictions: Pick<UploadRestrictions, 'multipart_threshold'>,
): boolean {
  return size > 0 && size > restrictions.multipart_threshold;
}

/** POST /api/rest/files (create-upload). */
export interface CreateUploadRequest {
  folder_id: string;
  name: string;
  extension: string;
  content_type: string;
  /**
   * Declared size in bytes; the stored object must match it. Optional for a single upload (SPEC
   * section 3's payload has only the four fields above): the object may then have up to
   * 104857600 bytes and the file takes the stored object's size when recorded.
   */
  size?: number;
  /**
   * The client's id of the batch (one pick of files, kept across a reload). One batch holds one
   * file per name (case-insensitive) and folder: a second is refused with SPEC section 5's
   * duplicate message, unless it is the same client file (`client_key`) created again, which is
   * answered its earlier upload.
   */
  batch_id?: string;
  /** The client's own key of the file within its batch (the uploader's file id). */
  client_key?: string;
  /**
   * Upload the bytes as a new version of this file (its id) instead of a new file: the file must
   * be a live file of the same folder that the session may change, with the same extension; it
   * keeps its id, name, favorites, index values, shares and permissions (common/versions.ts).
   * Without it a name that exists gets the next free " (n)" (keep both).
   */
  version_of?: string;
}

/** Answer of create-upload: a presigned PUT address on the object store. */
export interface CreateUploadResponse {
  id: string;
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
}

/**
 * Answer of create-upload (single or multipart) for a file of the batch created again whose bytes
 * need not be sent: `stored` (the bytes are stored: record the upload `id`) or `recorded` (it is
 * already the file `file`).
 */
export interface SettledUploadResponse {
  id: string;
  state: 'stored' | 'recorded';
  /** The recorded file (state `recorded`). */
  file?: FileDto;
}

/** POST /api/rest/files/record: makes a pending upload visible. */
export interface RecordUploadRequest {
  id: string;
  /**
   * Optional hex sha256 the client computed of the bytes it sent; the record is refused (and the
   * object deleted) when the stored object's checksum differs.
   */
  sha256?: string;
}

/**
 * POST /api/rest/files/multipart: starts a resumable multipart upload (same fields as
 * create-upload). The answer is the presigned S3-style create request and the storage key the
 * parts go to; `id` is both the pending upload's id and the multipart upload id.
 */
export type CreateMultipartUploadRequest = CreateUploadRequest & {
  /** Declared size in bytes (required: the parts are laid out from it). */
  size: number;
};

/** A presigned store request as the sign endpoints answer it. */
export interface PresignedRequestDto {
  url: string;
  method: 'PUT' | 'GET' | 'POST' | 'DELETE';
  headers: Record<string, string>;
}

/** One signed part of GET /api/rest/files/multipart/{uploadId}/parts. */
export interface PresignedPartDto extends PresignedRequestDto {
  part_number: number;
}

/** Answer of POST /api/rest/files/multipart. */
export interface CreateMultipartUploadResponse extends PresignedRequestDto {
  /** The pending upload's id, which is also the multipart upload id. */
  id: string;
  /** The server-generated object key every later step names. */
  key: string;
}
