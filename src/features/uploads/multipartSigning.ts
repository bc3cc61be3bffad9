/**
 * Signing the steps of a multipart upload after its creation (DESIGN.md section 4), the same for
 * the app's routes (/api/rest/files/multipart/…, uppyClient.ts) and a request link's
 * (/api/rest/public/requests/{token}/files/multipart/…, requestUppy.ts): parts are signed
 * PARTS_PER_SIGNATURE at a time and the ones not needed yet are kept (signedParts.ts); the part
 * listing (a resume), the completion and the abort are signed one call each.
 */
import { PRESIGNED_URL_TTL_MS } from '@common/constants';
import type { PresignedPartDto, PresignedRequestDto } from '@common/uploads';
import type { MultipartStep } from './s3Requests';
import { SignedPartCache } from './signedParts';

/**
 * Parts signed per API call: the next ones are signed with the one asked for, so a slow, distant
 * connection pays one round trip per 10 parts instead of one per part.
 */
export const PARTS_PER_SIGNATURE = 10;
/** A signed part is used only while it has at least this long left before it expires, in ms. */
export const SIGNED_PART_MARGIN_MS = 5 * 60_000;

/** The server calls that sign a multipart upload's steps (the app's or a request link's). */
export interface MultipartSigningApi {
  /** Signs `count` part uploads from part `first` (1-based). */
  signUploadParts(
    uploadId: string,
    key: string,
    first: number,
    count: number,
  ): Promise<PresignedPartDto[]>;
  /** Signs the listing of the parts already stored. */
  signListParts(uploadId: string, key: string): Promise<PresignedRequestDto>;
  /** Signs joining the parts into the object. */
  signCompleteMultipart(uploadId: string, key: string): Promise<PresignedRequestDto>;
  /** Signs the abort of the upload (the server forgets the pending upload too). */
  abortMultipartUpload(uploadId: string, key: string): Promise<PresignedRequestDto>;
}

/**
 * How many parts to sign from `partNumber` on: PARTS_PER_SIGNATURE, fewer near the file's last
 * part, at least 1 (also for a part number beyond the last, or a file of unknown size).
 * @param partNumber the part asked for, 1-based
 * @param fileSize the file's size in bytes; 0 when unknown
 * @param partSize the size of one part in bytes (the restrictions' `part_size`)
 */
export function partsToSign(partNumber: number, fileSize: number, partSize: number): number {
  const total = fileSize > 0 ? Math.ceil(fileSize / partSize) : partNumber;
  return Math.max(1, Math.min(PARTS_PER_SIGNATURE, total - partNumber + 1));
}

/** Signs the multipart steps of one uploader, keeping the parts signed ahead. */
export class MultipartSigner {
  private readonly signedParts: SignedPartCache;

  /**
   * @param now the clock, epoch ms; Date.now (read at each call) by default
   * @param ttlMs how long a signed URL stays valid, in ms; PRESIGNED_URL_TTL_MS by default
   * @param marginMs a part signed ahead is used only while it has this long left, in ms
   */
  constructor(
    private readonly now: () => number = () => Date.now(),
    ttlMs = PRESIGNED_URL_TTL_MS,
    marginMs = SIGNED_PART_MARGIN_MS,
  ) {
    this.signedParts = new SignedPartCache(ttlMs, marginMs);
  }

  /**
   * Signs one step: a part from the parts signed ahead while it is fresh, else together with the
   * next parts of the file ({@link partsToSign}); the other steps by their one call.
   * @param file the file's size in bytes (0 when unknown) and the part size in force
   * @returns the signed request as the server answered it (its URL may be relative)
   * @throws what the API call throws; an Error when the server's answer lacks the part asked for
   */
  async sign(
    step: MultipartStep,
    api: MultipartSigningApi,
    file: { size: number; partSize: number },
  ): Promise<PresignedRequestDto> {
    const { uploadId, key } = step;
    switch (step.kind) {
      case 'part':
        return this.signPart(uploadId, key, step.partNumber, api, file);
      case 'list-parts':
        return api.signListParts(uploadId, key);
      case 'complete':
        return api.signCompleteMultipart(uploadId, key);
      case 'abort':
        return api.abortMultipartUpload(uploadId, key);
    }
  }

  /** Forgets the parts signed ahead for one upload (cancelled, released or finished). */
  forgetUpload(uploadId: string): void {
    this.signedParts.forgetUpload(uploadId);
  }

  private async signPart(
    uploadId: string,
    key: string,
    partNumber: number,
    api: MultipartSigningApi,
    file: { size: number; partSize: number },
  ): Promise<PresignedRequestDto> {
    const ahead = this.signedParts.take(uploadId, partNumber, this.now());
    if (ahead) return ahead;
    const count = partsToSign(partNumber, file.size, file.partSize);
    const parts = await api.signUploadParts(uploadId, key, partNumber, count);
    const own = parts.find((part) => part.part_number === partNumber);
    this.signedParts.keep(
      uploadId,
      parts.filter((part) => part !== own),
      this.now(),
    );
    if (!own) throw new Error(`Part ${partNumber} could not be signed.`);
    return own;
  }
}
