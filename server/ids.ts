/** Time-ordered ids (UUIDv7, RFC 9562): they sort by creation time, which keyset paging relies on. */
import { v7 } from 'uuid';

/** A new UUIDv7 string. */
export function newId(): string {
  return v7();
}

/** A clock the services read; tests pass a fixed one. Answers epoch milliseconds. */
export type Clock = () => number;

/** The system clock. */
export const systemClock: Clock = () => Date.now();

/** ISO 8601 UTC text for a clock reading. */
export function isoAt(clock: Clock): string {
  return new Date(clock()).toISOString();
}
