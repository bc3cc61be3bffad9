/**
 * Display formatting of sizes and dates (SPEC.md section 9). Dates are shown in the user's local
 * time zone (the browser's, or the server process's when run there).
 */
import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime.js';
import { DEFAULT_DATE_FORMAT } from './constants';

dayjs.extend(relativeTime);

export { DEFAULT_DATE_FORMAT };

/** Size units after bytes; sizes are always shown in KB or larger (SPEC section 9). */
const SIZE_UNITS = ['KB', 'MB', 'GB', 'TB', 'PB'] as const;

/** One day, in milliseconds. */
const DAY_MS = 86_400_000;

/**
 * Formats a size in bytes for display (SPEC section 9: "KB, MB, GB and up, dividing by 1024, one
 * decimal, minimum shown 0.1; zero or missing shows 0 KB"). The value is divided by 1024 at least
 * once and again while it is 1024 or more (KB, MB, GB, TB, PB), then shown with one decimal and at
 * least 0.1. A value that would round up to "1024.0" moves to the next unit instead.
 *
 * Examples: 0 gives "0 KB", 14 gives "0.1 KB", 1536 gives "1.5 KB", 104857600 gives "100.0 MB".
 *
 * @param bytes a size in bytes; null, undefined, zero, negative or non-finite values show "0 KB"
 * @returns the text, e.g. "1.5 KB"; never throws
 */
export function formatSize(bytes: number | null | undefined): string {
  if (bytes == null || !Number.isFinite(bytes) || bytes <= 0) return '0 KB';
  let value = bytes / 1024;
  let unit = 0;
  while (unit < SIZE_UNITS.length - 1 && Number(value.toFixed(1)) >= 1024) {
    value /= 1024;
    unit += 1;
  }
  return `${Math.max(value, 0.1).toFixed(1)} ${SIZE_UNITS[unit] ?? 'KB'}`;
}

/** Decimals tried, after formatSize's one, before two sizes are shown in exact bytes. */
const MAX_SIZE_DECIMALS = 3;

/**
 * A size in exact bytes with thousands separators, e.g. "104,857,601 bytes".
 * @param bytes a whole, non-negative number of bytes
 */
function exactBytes(bytes: number): string {
  return `${String(Math.round(bytes)).replace(/\B(?=(\d{3})+(?!\d))/g, ',')} bytes`;
}

/**
 * Formats two sizes so that different sizes never read the same, e.g. a file just over a limit
 * and the limit. When {@link formatSize} already tells them apart (or they are equal, or either
 * is not a positive number) both are shown as formatSize shows them; otherwise in their common
 * unit with two or three decimals, the fewest that differ; otherwise in exact bytes.
 *
 * Examples: (2048, 1024) gives ["2.0 KB", "1.0 KB"]; (104868086, 104857600) gives
 * ["100.01 MB", "100.00 MB"]; (104857601, 104857600) gives ["104,857,601 bytes",
 * "104,857,600 bytes"].
 *
 * @param a a size in bytes
 * @param b another size in bytes
 * @returns the texts of `a` and `b`, in that order; never throws
 */
export function formatSizesApart(a: number, b: number): [string, string] {
  const textA = formatSize(a);
  const textB = formatSize(b);
  const positive = (n: number) => Number.isFinite(n) && n > 0;
  if (textA !== textB || a === b || !positive(a) || !positive(b)) return [textA, textB];
  const unit = textA.slice(textA.indexOf(' ') + 1);
  const divisor = 1024 ** (SIZE_UNITS.indexOf(unit as (typeof SIZE_UNITS)[number]) + 1);
  for (let decimals = 2; decimals <= MAX_SIZE_DECIMALS; decimals += 1) {
    const fixedA = (a / divisor).toFixed(decimals);
    const fixedB = (b / divisor).toFixed(decimals);
    if (fixedA !== fixedB) return [`${fixedA} ${unit}`, `${fixedB} ${unit}`];
  }
  return [exactBytes(a), exactBytes(b)];
}

/**
 * Formats a timestamp with {@link DEFAULT_DATE_FORMAT} in local time (SPEC section 9), e.g.
 * "Mar 5, 2024 2:07 pm".
 *
 * @param iso an ISO 8601 timestamp (with or without zone; without one it is read as local time)
 * @returns the formatted date, or '' when the value is missing or not a date; never throws
 */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = dayjs(iso);
  return date.isValid() ? date.format(DEFAULT_DATE_FORMAT) : '';
}

/**
 * Relative date for lists (SPEC section 9: "under 1 day shows 'Just Now'; 3 or more units apart
 * shows the absolute date; otherwise a relative phrase"). Interpretation: the "units" are days,
 * counted as whole 24-hour periods between the two moments (not calendar days):
 * - less than 24 hours apart (either direction): "Just Now";
 * - 3 or more whole days apart: the absolute date of {@link formatDate};
 * - 1 or 2 whole days apart: dayjs's relative phrase for exactly that many days, "a day ago" or
 *   "2 days ago" ("in a day" / "in 2 days" for a future moment), so the phrase never rounds up
 *   to "3 days ago".
 *
 * @param iso the moment to describe, an ISO 8601 timestamp
 * @param now the reference moment (a Date or epoch milliseconds); defaults to the current time
 * @returns the text, or '' when `iso` is missing or not a date; never throws
 */
export function relativeDate(
  iso: string | null | undefined,
  now: Date | number = new Date(),
): string {
  if (!iso) return '';
  const then = dayjs(iso);
  const reference = dayjs(now);
  if (!then.isValid() || !reference.isValid()) return '';
  const diff = reference.valueOf() - then.valueOf();
  const days = Math.floor(Math.abs(diff) / DAY_MS);
  if (days < 1) return 'Just Now';
  if (days >= 3) return formatDate(iso);
  const exact = diff >= 0 ? reference.subtract(days, 'day') : reference.add(days, 'day');
  return exact.from(reference);
}
