/**
 * Session timing shared by the client and the server (SPEC sections 2, 4, 6 and 9): the
 * warning comes `SESSION_COUNTDOWN_MS` before the idle limit, so a 30-minute session warns after
 * 1,680,000 ms (SESSION_WARNING_MS) and a 480-minute one after 28,680,000 ms
 * (SSO_SESSION_WARNING_MS); the countdown then runs to the limit.
 */
import { SESSION_COUNTDOWN_MS, SSO_SESSION_MINUTES } from './constants';
import { MESSAGES } from './messages';
import type { PreferencesDto } from './sort';

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

/** A firm database the user belongs to. */
export interface DatabaseDto {
  id: string;
  name: string;
  description: string | null;
  role: Role;
}

/** Roles per firm database (defined by this product; the spec names none). */
export type Role = 'admin' | 'member' | 'read_only' | 'guest';

/** GET /api/auth/current-user. */
export interface CurrentUserDto {
  userId: string;
  firstName: string;
  lastName: string;
  username: string;
  email: string | null;
  /** Single-sign-on flag (SPEC section 3); affects session length. */
  sso: boolean;
  databases: DatabaseDto[];
  currentDatabaseId: string;
  /** Idle session length in minutes (30, or 480 for partner SSO). */
  sessionMinutes: number;
  /**
   * The idle limit the server enforces, in seconds: sessionMinutes × 60, unless the test-only
   * SESSION_IDLE_SECONDS overrides it. The client's timers use this length.
   */
  sessionIdleSeconds: number;
  /**
   * Milliseconds left before the session ends for inactivity, as the server counts it at the time
   * of the answer (relative, so clock differences between browser and server do not matter).
   */
  sessionIdleRemainingMs: number;
  /**
   * The user's preferences (the folder view's remembered sort), so the first folder page is read
   * in the user's sort without another call. Absent from older servers: defaults apply.
   */
  preferences?: PreferencesDto;
  /**
   * The user may manage firms (firm provisioning: the operator's page under /admin/firms).
   * Absent from older servers: not an operator.
   */
  operator?: boolean;
}

/**
 * POST /api/auth/extend-session: the session's idle clock was reset (explicit Extend, or the
 * client's keep-alive while its user is active).
 */
export interface ExtendSessionResponse {
  /** When the session now ends unless extended again: now + idle limit, capped by its lifetime. */
  expires_at: string;
  /** Nominal idle length in minutes: 30, or 480 for partner single-sign-on users. */
  session_minutes: number;
  /** The idle limit the server enforces, in seconds (see CurrentUserDto.sessionIdleSeconds). */
  idle_seconds: number;
}

/** POST /api/rest/private/users/authenticate. */
export interface AuthenticateRequest {
  username: string;
  password: string;
}

/** POST /api/auth/switch-database. */
export interface SwitchDatabaseRequest {
  currentDatabaseId: string;
}
