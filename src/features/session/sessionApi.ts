/**
 * Calls of the session feature: current user, sign-in, login/logout events, database switch and
 * session extension.
 */
import { AUTH, REST, get, post } from '@src/api/client';
import { getWarm } from '@src/api/prefetch';
import type {
  AuthenticateRequest,
  CurrentUserDto,
  ExtendSessionResponse,
  SwitchDatabaseRequest,
} from '@common/session';
import type { TokenLoginRequest } from '@common/integrations';

/** The current user's address, asked for at start by src/main.tsx too. */
export const CURRENT_USER_PATH = `${AUTH}/current-user`;

/**
 * GET /api/auth/current-user; answers 401 when not signed in (not reported as an expiry). The
 * start-up's early call (src/main.tsx) is taken when there is one.
 */
export function fetchCurrentUser(): Promise<CurrentUserDto> {
  return getWarm<CurrentUserDto>(CURRENT_USER_PATH, undefined, false);
}

/** POST /api/rest/private/users/authenticate; sets the session cookie. */
export function authenticate(credentials: AuthenticateRequest): Promise<CurrentUserDto> {
  return post<CurrentUserDto>(`${REST}/private/users/authenticate`, credentials, {
    reportUnauthorized: false,
  });
}

/**
 * POST /api/auth/login with a single-use token a partner app generated (single sign-on, SPEC
 * section 7 "Auth"); sets the session cookie like a password sign-in.
 */
export function loginWithToken(body: TokenLoginRequest): Promise<CurrentUserDto> {
  return post<CurrentUserDto>(`${AUTH}/login`, body, { reportUnauthorized: false });
}

/** GET /api/rest/private/user_event/login: records the login event after a sign-in. */
export function recordLoginEvent(): Promise<unknown> {
  return get<unknown>(`${REST}/private/user_event/login`);
}

/** GET /api/rest/private/user_event/logout: records the logout event before signing out. */
export function recordLogoutEvent(): Promise<unknown> {
  return get<unknown>(`${REST}/private/user_event/logout`, { reportUnauthorized: false });
}

/** POST /api/auth/logout: ends the server session. */
export function logout(): Promise<unknown> {
  return post<unknown>(`${AUTH}/logout`, {}, { reportUnauthorized: false });
}

/** POST /api/auth/switch-database: makes another firm database current. */
export function switchDatabase(body: SwitchDatabaseRequest): Promise<CurrentUserDto> {
  return post<CurrentUserDto>(`${AUTH}/switch-database`, body);
}

/**
 * POST /api/auth/extend-session: resets the server's idle clock (the Extend button, and the
 * keep-alive sent while the user is active). A 401 means the session already ended.
 */
export function extendSession(): Promise<ExtendSessionResponse> {
  return post<ExtendSessionResponse>(`${AUTH}/extend-session`, {});
}
