/**
 * The `Content-Disposition` header of every response or upload that names a file (downloads,
 * previews, prints, folder zips, share-link downloads, the history export and the presigned PUT).
 * RFC 6266 with RFC 8187: the header value is pure ASCII, `filename` holds an ASCII stand-in for
 * old clients, and `filename*=UTF-8''…` holds the exact name whenever it is not plain ASCII (a
 * Latin-1 name such as "ÿlatin1é.txt" included: sent as raw bytes it reads differently in every
 * client).
 */
import contentDisposition from 'content-disposition';

/** Combining marks left by NFKD decomposition (é → e + U+0301). */
const COMBINING_MARKS = /[\u0300-\u036f]/g;
/** Anything outside printable ASCII. */
const NOT_PRINTABLE_ASCII = /[^\x20-\x7e]/g;

/**
 * The ASCII stand-in of a file name for the plain `filename` parameter: accents dropped (é → e,
 * ÿ → y, ﬁ → fi), every other character outside printable ASCII replaced by `_`.
 * @param name the file's name as stored
 * @returns printable ASCII, never empty
 */
export function asciiFileName(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(COMBINING_MARKS, '')
    .replace(NOT_PRINTABLE_ASCII, '_');
  return ascii === '' ? '_' : ascii;
}

/**
 * The `Content-Disposition` header value for a file name: `attachment` or `inline`, an ASCII
 * `filename` ({@link asciiFileName}), and `filename*=UTF-8''…` whenever the name is not plain
 * ASCII (or looks percent-encoded).
 * @param name the file's name as stored (any Unicode; no path separators)
 * @param type `attachment` (download) or `inline` (shown by the browser)
 * @returns a pure ASCII header value; never throws
 */
export function dispositionHeader(name: string, type: 'attachment' | 'inline'): string {
  return contentDisposition(name, { type, fallback: asciiFileName(name) });
}
