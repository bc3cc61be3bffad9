/**
 * The client checks run on a batch of picked files before they are handed to the uploader
 * (SPEC sections 5 and 8). The server checks everything again; these checks give the user the
 * spec's messages at once.
 */
import { MAX_FILE_SIZE_BYTES } from '../../../common/constants';
import { duplicateMessage, validateUploadFile } from '../../../common/files';
import { formatMessage } from '../../../common/messages';
import { nameKey } from '../../../common/names';
import { DIRECTORY_REJECTED } from './uploadMessages';

/** What the checks need to know about one picked item. */
export interface UploadCandidate {
  name: string;
  size: number;
  /** True for a dropped directory. */
  isDirectory: boolean;
}

/** One refused candidate and the message to show. */
export interface RejectedCandidate<T> {
  candidate: T;
  reason: string;
}

/** Result of {@link validateUploads}: candidates in their original order, split in two. */
export interface UploadValidation<T> {
  accepted: T[];
  rejected: RejectedCandidate<T>[];
}

/** Options of {@link validateUploads}. */
export interface ValidateUploadsOptions {
  /** Names already queued or uploading into the same folder: they count as duplicates too. */
  pendingNames?: Iterable<string>;
  /** Largest accepted size in bytes; MAX_FILE_SIZE_BYTES by default. */
  maxBytes?: number;
}

/**
 * Checks a batch of picked items; for each, the first failing rule wins:
 * 1. a directory is refused (DIRECTORY_REJECTED);
 * 2. the name and size rules of `validateUploadFile`: 'File name contains invalid characters'
 *    for a character outside ISO-8859-1, '{file} exceeds maximum allowed size of {size}' over
 *    the maximum;
 * 3. a second file with the same name (case-insensitive) in the batch, or the name of a file
 *    still uploading into the folder: "Cannot add the duplicate file '{fileName}', it already
 *    exists."
 *
 * @param candidates the picked items, in order
 * @param options names pending in the target folder and the size limit
 * @returns accepted and rejected candidates; never throws
 */
export function validateUploads<T extends UploadCandidate>(
  candidates: readonly T[],
  options: ValidateUploadsOptions = {},
): UploadValidation<T> {
  const maxBytes = options.maxBytes ?? MAX_FILE_SIZE_BYTES;
  const taken = new Set<string>();
  for (const name of options.pendingNames ?? []) taken.add(nameKey(name));

  const result: UploadValidation<T> = { accepted: [], rejected: [] };
  for (const candidate of candidates) {
    let reason: string | null;
    if (candidate.isDirectory) {
      reason = formatMessage(DIRECTORY_REJECTED, { name: candidate.name });
    } else {
      reason = validateUploadFile({ name: candidate.name, size: candidate.size }, maxBytes);
      if (reason === null && taken.has(nameKey(candidate.name))) {
        reason = duplicateMessage(candidate.name);
      }
    }
    if (reason === null) {
      taken.add(nameKey(candidate.name));
      result.accepted.push(candidate);
    } else {
      result.rejected.push({ candidate, reason });
    }
  }
  return result;
}
