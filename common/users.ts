/**
 * The firm's users and teams as administrators manage them (SPEC section 6), and the requests that change them.
 */
import type { Role } from './session';

/**
 * A member of a firm database as the admin area shows it (GET /api/rest/private/users and the
 * answers of the other private/users calls). `userId`, `firstName` and `lastName` are the spec's
 * User fields (SPEC section 3); the rest are this product's, in snake_case.
 */
export interface DatabaseUserDto {
  /** The user's id (same as userId). */
  id: string;
  userId: string;
  firstName: string;
  lastName: string;
  username: string;
  email: string | null;
  /** The user's role in the session's firm database. */
  role: Role;
  /** Single-sign-on flag (SPEC section 3). */
  sso: boolean;
  /** Disabled in this firm (cannot sign in to it; sessions in it were ended). */
  disabled: boolean;
  disabled_at: string | null;
  /** Locked after too many wrong passwords, now. */
  locked: boolean;
  /** When the lock was set (ISO UTC), or null when not locked. */
  locked_at: string | null;
  /** When the lock ends by itself (ISO UTC); null while locked means until an administrator unlocks. */
  locked_until: string | null;
  /** Wrong passwords in a row since the last successful sign-in or unlock. */
  failed_logins: number;
  created_at: string;
  updated_at: string;
}

/** POST /api/rest/private/users: a new member of the session's firm database. */
export interface CreateUserRequest {
  username: string;
  firstName: string;
  lastName: string;
  email?: string | null;
  password: string;
  /** Default 'member'. */
  role?: Role;
}

/** PATCH /api/rest/private/users/{id}: any of the fields; absent fields are kept. */
export interface UpdateUserRequest {
  username?: string;
  firstName?: string;
  lastName?: string;
  email?: string | null;
}

/** PATCH /api/rest/private/users/role/{id}. */
export interface UpdateUserRoleRequest {
  role: Role;
}

/** PATCH /api/rest/private/users/{id}/update_password. */
export interface UpdatePasswordRequest {
  password: string;
}

/** GET /api/rest/private/users/{id}/teams: one team the user belongs to. */
export interface UserTeamDto {
  id: string;
  name: string;
}

/** A team of the firm (GET/POST/PATCH /api/rest/private/teams). */
export interface TeamDto {
  id: string;
  name: string;
  /** The members' user ids. */
  member_ids: string[];
  created_at: string;
  updated_at: string;
}
