/**
 * A create-upload answer that needs no bytes sent (SPEC section 5: a file of a batch created
 * again, after a reload, a navigation or a retry, gets its earlier upload back): the bytes are
 * stored already, or the file is recorded. Both uploaders (uppyClient.ts and the request link
 * page's requestUppy.ts) stop such a file's upload by throwing {@link SettledUpload} from
 * `signRequest` and record it when Uppy reports the upload's error.
 */
import type {
  CreateMultipartUploadResponse,
  CreateUploadResponse,
  SettledUploadResponse,
} from '@common/uploads';

/**
 * Thrown by `signRequest` when create-upload answers that a file of the batch needs no bytes
 * sent: the upload stops there and the file is recorded with {@link uploadId}.
 */
export class SettledUpload extends Error {
  /** @param uploadId the server's pending-upload id of the stored or recorded file */
  constructor(readonly uploadId: string) {
    super('The file is already stored.');
  }
}

/**
 * Whether a create-upload answer (single or multipart) is the settled one: it has a `state`
 * (`stored` or `recorded`) and no URL to send bytes to.
 */
export function isSettled(
  reply: CreateUploadResponse | CreateMultipartUploadResponse | SettledUploadResponse,
): reply is SettledUploadResponse {
  return 'state' in reply;
}
