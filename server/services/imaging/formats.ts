/**
 * Which files document imaging derives from, and how (docs/architecture.md "Document imaging"):
 * the extension table and plans are in common/imaging.ts (the client's viewer reads it too); here
 * what only the server needs of the bytes.
 */

export { derivationPlan, ocrReadsImage, type DerivationPlan } from '@common/imaging';

/** The eight bytes every PNG starts with (RFC 2083 section 3.1). */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Whether the start of a PNG says it has transparency: colour type 4 (grey with alpha) or 6 (RGB
 * with alpha) in its IHDR chunk, or a `tRNS` chunk before the image data (RFC 2083 sections 4.1.1
 * and 4.2.1). Recognition refuses such images ("The input image has an alpha channel"), so they go
 * through LibreOffice, which lays them on a white page, first.
 * @param head the first bytes of the file (the chunks before IDAT; 64 KiB is plenty)
 * @returns false for anything that is not a PNG
 */
export function pngHasTransparency(head: Buffer): boolean {
  if (head.length < 33 || !head.subarray(0, 8).equals(PNG_SIGNATURE)) return false;
  const colourType = head[25];
  if (colourType === 4 || colourType === 6) return true;
  for (let at = 8; at + 8 <= head.length;) {
    const length = head.readUInt32BE(at);
    const type = head.toString('latin1', at + 4, at + 8);
    if (type === 'tRNS') return true;
    if (type === 'IDAT' || type === 'IEND') return false;
    at += 12 + length;
  }
  return false;
}
