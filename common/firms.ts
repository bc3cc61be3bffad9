/**
 * Firm provisioning (docs/architecture.md "Firm provisioning"): the shapes, limits and messages
 * of the operator's firm administration, shared by the API (server/routes/firms.ts), the command
 * line (`npm run admin -- firm …`) and the operator's page (src/features/firms/).
 *
 * A firm is one of SPEC section 3's databases: it has a name (unique, case-insensitively) and an
 * optional description; only firms with a description reach users' firm switchers (SPEC section
 * 3 "Database", common/session.ts switchableDatabases). A disabled firm keeps its data but no one
 * can sign in to it or switch to it, and its sessions end at their next request.
 */
import type { Role } from './session';

/** Longest firm name, in characters (code points), after trimming. */
export const FIRM_NAME_MAX_LENGTH = 100;
/** Longest firm description, in characters (code points), after trimming. */
export const FIRM_DESCRIPTION_MAX_LENGTH = 200;

/** The roles an operator gives in a firm (guests come only from the share flow). */
export const FIRM_ROLES = ['admin', 'member', 'read_only'] as const;
/** A role an operator gives. */
export type FirmRole = (typeof FIRM_ROLES)[number];

/** Whether a value is a role an operator may give. */
export function isFirmRole(value: unknown): value is FirmRole {
  return typeof value === 'string' && (FIRM_ROLES as readonly string[]).includes(value);
}

/** A firm as the operator sees it (GET REST/private/firms and every change's answer). */
export interface FirmDto {
  id: string;
  name: string;
  /** Null when none: such a firm is left out of users' firm switchers (SPEC section 3). */
  description: string | null;
  disabled: boolean;
  /** When it was disabled (ISO 8601 UTC), or null. */
  disabledAt: string | null;
  createdAt: string;
  /** Members (not guests), disabled members included. */
  memberCount: number;
}

/** A member of a firm as the operator sees it (GET REST/private/firms/{id}/members). */
export interface FirmMemberDto {
  userId: string;
  username: string;
  firstName: string;
  lastName: string;
  role: Role;
  /** Disabled in this firm by one of its administrators. */
  disabled: boolean;
}

/** Body of POST REST/private/firms. */
export interface CreateFirmRequest {
  name: string;
  description?: string | null;
}

/** Body of PATCH REST/private/firms/{id}: a new name, a new description ('' or null: none). */
export interface UpdateFirmRequest {
  name?: string;
  description?: string | null;
}

/** Body of POST REST/private/firms/{id}/members. */
export interface AddFirmMemberRequest {
  username: string;
  role: FirmRole;
}

/** Body of PATCH REST/private/firms/{id}/members/{userId}. */
export interface ChangeFirmRoleRequest {
  role: FirmRole;
}

/** Messages of firm provisioning ({name} placeholders: formatMessage of common/messages.ts). */
export const FIRM_MESSAGES = {
  operatorOnly: 'Only operators can manage firms.',
  nameRequired: 'A firm needs a name.',
  nameTooLong: `A firm name has at most ${FIRM_NAME_MAX_LENGTH} characters.`,
  descriptionTooLong: `A firm description has at most ${FIRM_DESCRIPTION_MAX_LENGTH} characters.`,
  controlCharacters: 'Names and descriptions cannot contain control characters.',
  nameTaken: 'A firm named "{name}" already exists.',
  firmNotFound: 'No firm "{firm}".',
  userNotFound: 'No user "{username}".',
  invalidRole: 'Unknown role "{role}": use admin, member or read_only.',
  alreadyMember: '"{username}" is already a member of "{firm}" as {role}.',
  notMember: '"{username}" is not a member of "{firm}".',
  alreadyDisabled: 'The firm "{firm}" is already disabled.',
  alreadyEnabled: 'The firm "{firm}" is not disabled.',
} as const;

/**
 * The problem with a firm name, or null when it is fine: required, at most
 * FIRM_NAME_MAX_LENGTH characters after trimming, no control characters.
 * @param name the name as typed (trimmed here)
 */
export function firmNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return FIRM_MESSAGES.nameRequired;
  if ([...trimmed].length > FIRM_NAME_MAX_LENGTH) return FIRM_MESSAGES.nameTooLong;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) return FIRM_MESSAGES.controlCharacters;
  return null;
}

/**
 * The problem with a firm description, or null when it is fine: at most
 * FIRM_DESCRIPTION_MAX_LENGTH characters after trimming, no control characters. A blank one is
 * fine and means none.
 */
export function firmDescriptionProblem(description: string): string | null {
  const trimmed = description.trim();
  if ([...trimmed].length > FIRM_DESCRIPTION_MAX_LENGTH) return FIRM_MESSAGES.descriptionTooLong;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) return FIRM_MESSAGES.controlCharacters;
  return null;
}

/** A description as stored: trimmed, and null when blank (SPEC section 3: no description). */
export function normalizedDescription(description: string | null | undefined): string | null {
  const trimmed = (description ?? '').trim();
  return trimmed === '' ? null : trimmed;
}
