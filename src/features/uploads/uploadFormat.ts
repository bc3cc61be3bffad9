/**
 * How the upload panel shows speed and time left (the spec leaves both open): the speed in the
 * size format of SPEC section 9 per second ("1.5 MB/s"), the time left rounded up to whole
 * seconds under a minute, whole minutes under an hour, else hours and minutes.
 */
import { formatSize } from '@common/format';

/**
 * Formats a speed.
 * @param bytesPerSecond bytes per second
 * @returns e.g. "1.5 MB/s"
 */
export function formatSpeed(bytesPerSecond: number): string {
  return `${formatSize(bytesPerSecond)}/s`;
}

/**
 * Formats a time left.
 * @param seconds whole seconds, at least 0
 * @returns "5 s left", "3 min left", "1 h 5 min left"
 */
export function formatTimeLeft(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 60) return `${s} s left`;
  const minutes = Math.ceil(s / 60);
  if (minutes < 60) return `${minutes} min left`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h left` : `${hours} h ${rest} min left`;
}
