/**
 * Part URLs of multipart uploads signed ahead (DESIGN.md section 4): the uploader asks the server
 * for PARTS_PER_SIGNATURE parts at once and keeps the ones it did not need yet, each used once and
 * only while it has at least `marginMs` left before it expires.
 */
import type { PresignedRequestDto } from '@common/uploads';

/** A part URL the server signed, without its part number. */
type SignedPart = Pick<PresignedRequestDto, 'url' | 'headers'>;

/** The cache of part URLs signed ahead, by upload id and part number. */
export class SignedPartCache {
  private readonly parts = new Map<string, SignedPart & { at: number }>();

  /**
   * @param ttlMs how long a signed URL stays valid, in ms (PRESIGNED_URL_TTL_MS)
   * @param marginMs a URL is used only while it has at least this long left, in ms
   */
  constructor(
    private readonly ttlMs: number,
    private readonly marginMs: number,
  ) {}

  /**
   * Takes the URL of one part signed ahead (removing it: each is used once).
   * @param now the current time, epoch ms
   * @returns the PUT request, or null when none is kept or it is too close to its expiry
   */
  take(uploadId: string, partNumber: number, now: number): PresignedRequestDto | null {
    const key = `${uploadId}/${partNumber}`;
    const kept = this.parts.get(key);
    this.parts.delete(key);
    if (!kept || now - kept.at >= this.ttlMs - this.marginMs) return null;
    return { url: kept.url, method: 'PUT', headers: kept.headers };
  }

  /**
   * Keeps parts signed at `at` (epoch ms) for later calls.
   * @param parts the signed parts, each with its part number
   */
  keep(uploadId: string, parts: readonly (SignedPart & { part_number: number })[], at: number) {
    for (const part of parts) {
      this.parts.set(`${uploadId}/${part.part_number}`, {
        url: part.url,
        headers: part.headers,
        at,
      });
    }
  }

  /** Forgets every part kept for one upload (cancelled, released or finished). */
  forgetUpload(uploadId: string): void {
    for (const key of [...this.parts.keys()]) {
      if (key.startsWith(`${uploadId}/`)) this.parts.delete(key);
    }
  }

  /** Number of parts kept (for tests). */
  get size(): number {
    return this.parts.size;
  }
}
