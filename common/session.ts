/**
 * Session timing shared by the client and the server (SPEC sections 2, 4, 6 and 9): the
 * warning comes `SESSION_COUNTDOWN_MS` before the idle limit, so a 30-minute session warns after
 * 1,680,000 ms (SESSION_WARNING_MS) and a 480-minute one after 28,680,000 ms
 * (SSO_SESSION_WARNING_MS); the countdown then runs to the limit.
 */
import { SESSION_COUNTDOWN_MS, SSO_SESSION_MINUTES } from './constants';
import { MESSAGES } from './messages';

/**
 * Milliseconds of inactivity before the timeout warning opens.
 * @param sessionMs the idle limit in milliseconds
 * @returns sessionMs − SESSION_COUNTDOWN_MS, or 0 when the session is shorter than the countdown
 */
export function warningDelayMs(sessionMs: number): number {
  return Math.max(0, sessionMs - SESSION_COUNTDOWN_MS);
}

/**
 * Length of the warning's countdown, in milliseconds: SESSION_COUNTDOWN_MS (120000), or the whole
 * session when it is shorter (only with the test-only SESSION_IDLE_SECONDS).
 */
export function countdownLengthMs(sessionMs: number): number {
  return Math.min(SESSION_COUNTDOWN_MS, Math.max(0, sessionMs));
}

/**
 * Formats the time left in the warning text: `m:ss`, e.g. 120000 → "2:00", 59000 → "0:59";
 * partial seconds round up (so "0:00" shows only at zero) and an hour or more shows `h:mm:ss`.
 * @param ms milliseconds left; negative counts as 0
 */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  if (hours > 0) return `${hours}:${String(minutes).padStart(2, '0')}:${seconds}`;
  return `${minutes}:${seconds}`;
}

/**
 * The confirmation text after an extension (SPEC section 2): the 8-hour text for partner
 * single-sign-on sessions (480 minutes), the 30-minute text otherwise.
 * @param sessionMinutes the session's nominal idle length in minutes
 */
export function sessionExtendedText(sessionMinutes: number): string {
  return sessionMinutes === SSO_SESSION_MINUTES
    ? MESSAGES.sessionExtendedSso
    : MESSAGES.sessionExtended;
}

/**
 * The firm databases a user can pick from (SPEC section 3 "Database", section 7 GET
 * private/databases): only those with a description (trimmed; a blank one counts as none), and of
 * those sharing a description only one, the current database if it is among them, else the first
 * in the given order. The order is kept.
 *
 * @param databases the user's databases, in the order to show them
 * @param currentId the session's current database id, or null
 * @returns the kept databases, a subset of `databases` in the same order
 */
export function switchableDatabases<T extends { id: string; description: string | null }>(
  databases: readonly T[],
  currentId: string | null,
): T[] {
  const byDescription = new Map<string, T>();
  for (const database of databases) {
    const description = (database.description ?? '').trim();
    if (description === '') continue;
    const kept = byDescription.get(description);
    if (!kept || (database.id === currentId && kept.id !== currentId)) {
      byDescription.set(description, database);
    }
  }
  const kept = new Set(byDescription.values());
  return databases.filter((database) => kept.has(database));
}
