/**
 * Byte ranges of file reads (RFC 9110 section 14): what a `Range` header asks of a body, and the
 * check a file read makes before it records its history event, so that a read answered 416
 * records nothing.
 */
import { rangeNotSatisfiable } from '../errors';
import type { ByteRange } from '../storage/objectStore';

/**
 * What a request's `Range` header asks of a body of `size` bytes (RFC 9110 section 14):
 * - `{ kind: 'full' }`: no header, another unit than bytes, a malformed or reversed range, or
 *   several ranges (a server may answer those whole, and no browser needs them): 200 with all;
 * - `{ kind: 'partial', range }`: one satisfiable range (`bytes=a-b`, `bytes=a-`, the suffix
 *   `bytes=-n`), its end clamped to the last byte: 206;
 * - `{ kind: 'unsatisfiable' }`: a first byte at or past the end, or an empty suffix: 416.
 * @param header the `Range` header's value, if any
 * @param size the body's length in bytes
 */
export function parseByteRange(
  header: string | undefined,
  size: number,
): { kind: 'full' } | { kind: 'partial'; range: ByteRange } | { kind: 'unsatisfiable' } {
  const full = { kind: 'full' } as const;
  if (!header) return full;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return full;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return full;
  if (first === '') {
    // A suffix: the last n bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', range: { start: Math.max(0, size - length), end: size - 1 } };
  }
  const start = Number(first);
  const end = last === '' ? Infinity : Number(last);
  if (!Number.isSafeInteger(start) || end < start) return full;
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', range: { start, end: Math.min(end, size - 1) } };
}

/**
 * Refuses a read whose `Range` no byte of a body of `size` bytes satisfies, before anything is
 * recorded of it.
 * @param range the request's `Range` header, if any (none when an `If-Range` asks for all)
 * @param size the length in bytes of what would be served
 * @throws AppError 416 `range_not_satisfiable` with `Content-Range: bytes *\/size`
 */
export function assertRangeSatisfiable(range: string | undefined, size: number): void {
  if (parseByteRange(range, size).kind === 'unsatisfiable') throw rangeNotSatisfiable(size);
}
