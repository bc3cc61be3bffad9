/**
 * The client checks run on a batch of picked files before they are handed to the uploader
 * (SPEC sections 5 and 8). The server checks everything again; these checks give the user the
 * spec's messages at once.
 */
import { duplicateMessage, validateUploadFile } from '@common/files';
import { formatMessage } from '@common/messages';
import { nameKey } from '@common/names';
import {
  DEFAULT_UPLOAD_RESTRICTIONS,
  tooManyFilesMessage,
  validateRestrictedFile,
  type UploadRestrictions,
} from '@common/uploads';
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
  /** The restrictions in force (size, count, types); DEFAULT_UPLOAD_RESTRICTIONS by default. */
  restrictions?: UploadRestrictions;
  /** Files the current upload already holds toward the count restriction; 0 by default. */
  countInUse?: number;
}

/**
 * Checks a batch of picked items; for each, the first failing rule wins:
 * 1. a directory is refused (DIRECTORY_REJECTED);
 * 2. the name and size rules of `validateUploadFile`: 'File name contains invalid characters'
 *    for a character outside ISO-8859-1, '{file} exceeds maximum allowed size of {size}.' over
 *    the maximum;
 * 3. the configured restrictions of `validateRestrictedFile`: the minimum size and the allowed
 *    types;
 * 4. a second file with the same name (case-insensitive) in the batch, or the name of a file
 *    still uploading into the folder: "Cannot add the duplicate file '{fileName}', it already
 *    exists.";
 * 5. a file beyond the count restriction (the files already in the upload plus those accepted
 *    before it in the batch): "You can only upload {n} file(s)."
 *
 * @param candidates the picked items, in order
 * @param options names pending in the target folder, the restrictions and the count in use
 * @returns accepted and rejected candidates; never throws
 */
export function validateUploads<T extends UploadCandidate>(
  candidates: readonly T[],
  options: ValidateUploadsOptions = {},
): UploadValidation<T> {
  const restrictions = options.restrictions ?? DEFAULT_UPLOAD_RESTRICTIONS;
  let count = options.countInUse ?? 0;
  const taken = new Set<string>();
  for (const name of options.pendingNames ?? []) taken.add(nameKey(name));

  const result: UploadValidation<T> = { accepted: [], rejected: [] };
  for (const candidate of candidates) {
    let reason: string | null;
    if (candidate.isDirectory) {
      reason = formatMessage(DIRECTORY_REJECTED, { name: candidate.name });
    } else {
      const file = { name: candidate.name, size: candidate.size };
      reason =
        validateUploadFile(file, restrictions.max_file_size) ??
        validateRestrictedFile(file, restrictions);
      if (reason === null && taken.has(nameKey(candidate.name))) {
        reason = duplicateMessage(candidate.name);
      }
      if (reason === null && count >= restrictions.max_number_of_files) {
        reason = tooManyFilesMessage(restrictions.max_number_of_files);
      }
    }
    if (reason === null) {
      count += 1;
      taken.add(nameKey(candidate.name));
      result.accepted.push(candidate);
    } else {
      result.rejected.push({ candidate, reason });
    }
  }
  return result;
}
