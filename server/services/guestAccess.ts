/**
 * Reaching a share from its link (SPEC sections 1 and 7 "Shares"): the invitation page's facts,
 * guest sign-up and sign-in through a share, and accepting a share when signed in.
 *
 * - Accepting (sign-up, sign-in or accept) creates an external share for the user: access to the
 *   item, checked on every request by sharingAccess.ts. Guests are users with a 'guest'
 *   membership in the link's firm. History external_share create (invite accepted), by the
 *   accepting user, in the transaction that grants it.
 * - A link with a password asks for it with SHARE_PASSWORD_MAX_FAILURES attempts before it locks
 *   for SHARE_PASSWORD_LOCK_MINUTES (429; shareLinkLockout.ts).
 */
import { isValidEmail } from '@common/email';
import { formatMessage } from '@common/messages';
import { passwordProblem } from '@common/passwordPolicy';
import {
  SHARED_LANDING,
  SHARING_MESSAGES,
  type InvitationInfoDto,
  type SharedEntityDto,
  type SharedSigninRequest,
  type SharedSignupRequest,
  type SharedSignupResponse,
} from '@common/sharing';
import type { ExternalShareRow } from '../db/schemaSharing';
import { AppError, badRequest, forbidden, notFound } from '../errors';
import { newId } from '../ids';
import { hashPassword } from '../passwords';
import { displayName } from '../presenters';
import { findFile } from '../repositories/files';
import { findFolder } from '../repositories/folders';
import {
  activeShareOf,
  findLink,
  findUserByEmail,
  insertShare,
  updateInvitation,
  userExistsForEmail,
} from '../repositories/shares';
import type { Executor } from '../repositories/types';
import {
  allMembershipsOfUser,
  databaseNames,
  findUserById,
  findUserByUsernameKey,
  insertMembership,
  insertUser,
} from '../repositories/users';
import { openSession, verifyCredentials, type ClientInfo } from './auth';
import type { RequestContext, Services } from './context';
import { checkLinkPassword } from './shareLinkLockout';
import { recordInviteAccepted } from './historyEvents';
import { presentSharedFile, presentSharedFolder, type UserShare } from './sharingAccess';
import { type ResolvedToken, resolveToken } from './shareTokens';

/**
 * Refuses an invitation token used by someone whose address is not the invited one.
 * @throws AppError 403 `invitation_email_mismatch`
 */
function assertInvitedAddress(
  resolved: ResolvedToken,
  user: { email: string | null; username_key: string },
): void {
  if (!resolved.invitation) return;
  const invited = resolved.invitation.email;
  if (user.email?.toLowerCase() === invited || user.username_key === invited) return;
  throw forbidden(SHARING_MESSAGES.invitationEmailMismatch, 'invitation_email_mismatch');
}

/**
 * Gives the acting user access through a resolved token, in the caller's transaction: a new
 * external share (history external_share create, by the acting user) unless they have one through
 * this link already; an invitation is marked accepted.
 * @returns the share that gives access
 */
async function grantShare(
  trx: Executor,
  services: Services,
  ctx: RequestContext,
  resolved: ResolvedToken,
  email: string,
): Promise<ExternalShareRow> {
  const now = new Date(services.clock()).toISOString();
  const { link, invitation, item } = resolved;
  if (invitation && invitation.state !== 'accepted') {
    await updateInvitation(trx, invitation.id, {
      state: 'accepted',
      accepted_at: now,
      accepted_by: ctx.userId,
    });
  }
  const existing = await activeShareOf(trx, link.id, ctx.userId);
  if (existing) return existing;
  const share: ExternalShareRow = {
    id: newId(),
    database_id: link.database_id,
    link_id: link.id,
    invitation_id: invitation?.id ?? null,
    user_id: ctx.userId,
    entity_type: link.entity_type,
    entity_id: link.entity_id,
    created_at: now,
    removed_at: null,
  };
  await insertShare(trx, share);
  await recordInviteAccepted(trx, services, ctx, share, email, item);
  return share;
}

/**
 * GET /api/rest/shared/invitation/{token} (public): what the invitation page shows before
 * sign-in.
 * @throws AppError 404 unknown/cancelled/revoked token; 410 expired link
 */
export async function invitationInfo(
  services: Services,
  token: string,
): Promise<InvitationInfoDto> {
  const resolved = await resolveToken(services.db, services.clock(), token);
  const { link, invitation, item } = resolved;
  return {
    kind: resolved.kind,
    link_id: link.id,
    ...(invitation ? { email: invitation.email } : {}),
    shared_by_name: displayName(link.creator_first, link.creator_last),
    entity_type: item.type,
    entity_name: item.name,
    has_account: invitation ? await userExistsForEmail(services.db, invitation.email) : false,
    requires_password: link.password_hash !== null,
    state: invitation ? invitation.state : 'sent',
  };
}

/** The acting context of a user in a link's firm, for history events outside a session. */
function actingContext(
  user: { id: string; first_name: string; last_name: string },
  databaseId: string,
  role: RequestContext['role'],
  client: ClientInfo,
): RequestContext {
  return {
    userId: user.id,
    userName: displayName(user.first_name, user.last_name),
    databaseId,
    role,
    sessionId: '',
    ip: client.ip,
    userAgent: client.userAgent,
  };
}

/**
 * POST /api/rest/shared/signup (public): creates a guest account for the address (username and
 * e-mail = the address, lowercased) with a 'guest' membership in the link's firm and accepts the
 * share for it. It never tells whether the address already had an account (in any firm): the
 * password is checked first, so a weak one is refused the same way for every address, and an
 * address that has an account gets exactly the answer of a new one, with the same work done
 * (the password is hashed either way) and nothing changed; its owner reaches the share by signing
 * in (POST shared/signin accepts it then). No session is opened: the client signs in next with
 * the same address and password.
 * @returns the answer of every accepted sign-up, whether an account was created or not
 * @throws AppError 400 (password policy, then address and names), 403 (invited address differs,
 *   wrong link password), 404/410 (token), 429 (link locked)
 */
export async function sharedSignup(
  services: Services,
  input: SharedSignupRequest,
  client: ClientInfo,
): Promise<SharedSignupResponse> {
  const resolved = await resolveToken(services.db, services.clock(), input.shareId);
  const email = input.email.trim().toLowerCase();
  const firstName = input.first_name.trim();
  const lastName = input.last_name.trim();
  const firms = await databaseNames(services.db, [resolved.link.database_id]);
  const problem = await passwordProblem(input.password, {
    username: email,
    userInputs: [firstName, lastName, ...firms],
    minLength: services.config.passwordMinLength,
  });
  if (problem) throw badRequest(problem, 'weak_password');
  if (!isValidEmail(email)) {
    throw badRequest(
      formatMessage(SHARING_MESSAGES.invalidEmail, { email: input.email.trim() }),
      'invalid_email',
    );
  }
  if (!firstName || !lastName) {
    throw badRequest('First and last names are required.', 'names_required');
  }
  assertInvitedAddress(resolved, { email, username_key: email });
  await checkLinkPassword(services, resolved.link, input.link_password);
  const answer: SharedSignupResponse = { next: 'sign_in', message: SHARING_MESSAGES.signUpDone };
  // Hashed before the address is looked up, so an existing address is not answered faster.
  const passwordHash = await hashPassword(input.password);
  const now = new Date(services.clock()).toISOString();
  const user = { id: newId(), first_name: firstName, last_name: lastName };
  const databaseId = resolved.link.database_id;
  await services.db.transaction().execute(async (trx) => {
    if (await userExistsForEmail(trx, email)) return;
    await insertUser(trx, {
      id: user.id,
      username: email,
      username_key: email,
      email,
      first_name: firstName,
      last_name: lastName,
      password_hash: passwordHash,
      sso: 0,
      disabled_at: null,
      created_at: now,
      updated_at: now,
    });
    await insertMembership(trx, {
      id: newId(),
      user_id: user.id,
      database_id: databaseId,
      role: 'guest',
      created_at: now,
    });
    const ctx = actingContext(user, databaseId, 'guest', client);
    await grantShare(trx, services, ctx, resolved, email);
  });
  return answer;
}

/**
 * POST /api/rest/shared/signin (public): signs an existing user in through a share. The password
 * is checked with the same lockout as the normal sign-in. A user who is not a member of the link's
 * firm becomes its guest; a member (internal sharing) keeps their role. The share is accepted and
 * the session opens in the link's firm.
 * @param replacedToken the session cookie the request carried, if any
 * @returns the new session's cookie token and the landing location
 * @throws AppError 401 (credentials, locked account, disabled in that firm), 403 (invited address
 *   differs, wrong link password), 404/410 (token), 429 (link locked)
 */
export async function sharedSignin(
  services: Services,
  input: SharedSigninRequest,
  client: ClientInfo,
  replacedToken?: string,
): Promise<{ token: string; landing: typeof SHARED_LANDING }> {
  const resolved = await resolveToken(services.db, services.clock(), input.inviteId);
  const typed = input.email.trim().toLowerCase();
  const found =
    (await findUserByUsernameKey(services.db, typed)) ??
    (await findUserByEmail(services.db, typed));
  const user = await verifyCredentials(services, found, input.password, client);
  assertInvitedAddress(resolved, user);
  await checkLinkPassword(services, resolved.link, input.link_password);
  const databaseId = resolved.link.database_id;
  await services.db.transaction().execute(async (trx) => {
    const membership = (await allMembershipsOfUser(trx, user.id)).find(
      (m) => m.database_id === databaseId,
    );
    if (membership && membership.disabled_at !== null) {
      throw new AppError(401, 'invalid_credentials', 'You no longer have access to this firm.');
    }
    let role = (membership?.role ?? 'guest') as RequestContext['role'];
    if (!membership) {
      await insertMembership(trx, {
        id: newId(),
        user_id: user.id,
        database_id: databaseId,
        role: 'guest',
        created_at: new Date(services.clock()).toISOString(),
      });
      role = 'guest';
    }
    const ctx = actingContext(user, databaseId, role, client);
    await grantShare(trx, services, ctx, resolved, (user.email ?? user.username).toLowerCase());
  });
  const session = await openSession(services, user, databaseId, client, replacedToken);
  return { token: session.token, landing: SHARED_LANDING };
}

/**
 * POST /api/rest/shared/links/{id}/accept: the signed-in user (a member of the link's firm or a
 * guest of it) accepts a share with its invitation or link token.
 * @returns the shared item as the Shared page lists it
 * @throws AppError 404 (link not in the session's firm, token not of this link), 403 (invited
 *   address differs, wrong link password), 410 (expired), 429 (link locked)
 */
export async function acceptShare(
  services: Services,
  ctx: RequestContext,
  linkId: string,
  token: string,
  password: string | undefined,
): Promise<{ share: SharedEntityDto }> {
  const link = await findLink(services.db, ctx.databaseId, linkId);
  if (!link) throw notFound();
  const resolved = await resolveToken(services.db, services.clock(), token);
  if (resolved.link.id !== link.id) throw notFound();
  const user = await findUserById(services.db, ctx.userId);
  if (!user) throw notFound();
  assertInvitedAddress(resolved, user);
  await checkLinkPassword(services, resolved.link, password);
  const share = await services.db
    .transaction()
    .execute((trx) =>
      grantShare(trx, services, ctx, resolved, (user.email ?? user.username).toLowerCase()),
    );
  const grant: UserShare = { share, link: resolved.link, active: true };
  const item =
    resolved.item.type === 'folder'
      ? presentSharedFolder(
          (await findFolder(services.db, link.database_id, link.entity_id))!,
          grant,
          '',
        )
      : presentSharedFile(
          (await findFile(services.db, link.database_id, link.entity_id))!,
          grant,
          '',
        );
  return { share: item };
}
