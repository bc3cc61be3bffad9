/**
 * The recipient's side of a document request (docs/architecture.md "Document requests"): what
 * the page at a request link shows, unlocking a password-protected request, and uploading into
 * its items. A link grants nothing else: the page lists only the request's items and what this
 * recipient uploaded; no route of the link reads, lists or downloads any file.
 *
 * Uploads go through the app's own upload steps (services/files.ts, services/uploads.ts: the same
 * name, type and size rules and messages, presigned single PUT or resumable multipart) acting for
 * the request: the folder is the request's target folder, the acting user is the request's
 * creator (whose access to the folder the request carries; a creator who lost it ends the link)
 * and the name the events show is the recipient's address. Every upload the link starts is
 * noted, and each later step and the record act only on an upload the same recipient started.
 */
import {
  REQUEST_ACCESS_TTL_MS,
  REQUEST_MESSAGES,
  type PublicRequestDto,
  type PublicRequestItemDto,
  type RequestItemState,
  type RequestUploadStart,
  type UnlockRequestResponse,
} from '@common/documentRequests';
import type { PresignedPartDto, PresignedRequestDto } from '@common/uploads';
import type { Role } from '@common/session';
import type { DocumentRequestRecipientRow, DocumentRequestRow } from '../../db/schemaRequests';
import { AppError, conflict, forbidden, notFound } from '../../errors';
import { isoAt } from '../../ids';
import { verifyPassword } from '../../passwords';
import { displayName } from '../../presenters';
import {
  findItem,
  findRecipientByTokenHash,
  findRecipientUpload,
  findRequestById,
  firmNameOf,
  insertRequestUpload,
  itemsOf,
  markUploadRecorded,
  moveItem,
  recordedUploadsOf,
  updateRecipient,
} from '../../repositories/documentRequests';
import { findMembership } from '../../repositories/firms';
import { addPasswordFailure, clearPasswordFailures } from '../../repositories/passwordLockout';
import { findFolder } from '../../repositories/folders';
import { findUserById } from '../../repositories/users';
import { applyIndexes } from '../appliedIndexes';
import type { ClientInfo } from '../auth';
import type { RequestContext, Services } from '../context';
import { createUpload, recordUpload, type CreateUploadOutcome } from '../files';
import { inTransaction } from '../transactions';
import {
  abortMultipartUpload,
  createMultipartUpload,
  signCompleteMultipart,
  signListParts,
  signUploadPart,
  signUploadParts,
  uploadRestrictions,
} from '../uploads';
import { recordRequestEvent } from './events';
import { parseJsonList, statusAt, type StoredIndexValue } from './presenters';
import { newAccessGrant, tokenHash } from './tokens';

/** A resolved link: its request, its recipient, and whether the unlock grant is valid. */
interface ResolvedLink {
  request: DocumentRequestRow;
  recipient: DocumentRequestRecipientRow;
  unlocked: boolean;
  /** The creator's role in the request's firm: the link's uploads act with it. */
  creatorRole: Role;
}

/**
 * The request and recipient of a link token.
 * @param access the unlock grant the client sent (REQUEST_ACCESS_HEADER), if any
 * @throws AppError 404 unknown token, or a creator no longer an enabled member of the firm (the
 *   request carries the creator's access to the folder, so losing it ends the link); 410
 *   `request_cancelled` / `request_expired`
 */
async function resolveLink(
  services: Services,
  token: string,
  access: string | undefined,
): Promise<ResolvedLink> {
  const recipient = await findRecipientByTokenHash(services.db, tokenHash(token));
  const request = recipient ? await findRequestById(services.db, recipient.request_id) : undefined;
  if (!recipient || !request) throw notFound(REQUEST_MESSAGES.notFound, 'no_such_request');
  const membership = await findMembership(services.db, request.database_id, request.created_by);
  if (!membership || membership.disabled_at !== null || membership.role === 'guest') {
    throw notFound(REQUEST_MESSAGES.notFound, 'no_such_request');
  }
  const now = services.clock();
  const status = statusAt(request, now);
  if (status === 'cancelled')
    throw new AppError(410, 'request_cancelled', REQUEST_MESSAGES.cancelled);
  if (status === 'expired') throw new AppError(410, 'request_expired', REQUEST_MESSAGES.expired);
  const unlocked =
    request.password_hash === null ||
    (access !== undefined &&
      recipient.access_hash !== null &&
      recipient.access_hash === tokenHash(access) &&
      recipient.access_expires_at !== null &&
      Date.parse(recipient.access_expires_at) > now);
  return { request, recipient, unlocked, creatorRole: membership.role as Role };
}

/** A link that may upload now: unlocked and open. @throws AppError 403 locked, 409 not open */
async function uploadingLink(
  services: Services,
  token: string,
  access: string | undefined,
): Promise<ResolvedLink> {
  const link = await resolveLink(services, token, access);
  if (!link.unlocked) throw forbidden(REQUEST_MESSAGES.passwordRequired, 'request_locked');
  if (link.request.status !== 'open') throw conflict(REQUEST_MESSAGES.notOpen, 'request_not_open');
  return link;
}

/**
 * The context the link's uploads act in: the request's creator in the request's firm, named by
 * the recipient's address.
 */
function actingFor(link: ResolvedLink, client: ClientInfo): RequestContext {
  return {
    userId: link.request.created_by,
    userName: link.recipient.email,
    databaseId: link.request.database_id,
    role: link.creatorRole,
    sessionId: `request:${link.recipient.id}`,
    ip: client.ip,
    userAgent: client.userAgent,
  };
}

/** The page of a resolved link. */
async function present(services: Services, link: ResolvedLink): Promise<PublicRequestDto> {
  const { request, recipient, unlocked } = link;
  const creator = await findUserById(services.db, request.created_by);
  const base = {
    firm_name: await firmNameOf(services.db, request.database_id),
    title: request.title,
    message: request.message,
    due_date: request.due_date,
    status: statusAt(request, services.clock()),
    from_name: creator ? displayName(creator.first_name, creator.last_name) : '',
    email: recipient.email,
    has_password: request.password_hash !== null,
    locked: !unlocked,
    restrictions: uploadRestrictions(services),
  };
  if (!unlocked) return { ...base, items: [] };
  const [items, uploads] = await Promise.all([
    itemsOf(services.db, [request.id]),
    recordedUploadsOf(services.db, [request.id]),
  ]);
  const own = uploads.filter((u) => u.recipient_id === recipient.id);
  return {
    ...base,
    items: items.map((item): PublicRequestItemDto => ({
      id: item.id,
      name: item.name,
      description: item.description,
      state: item.state as RequestItemState,
      reject_reason: item.state === 'rejected' ? item.reject_reason : null,
      uploads: own
        .filter((u) => u.item_id === item.id)
        .map((u) => ({
          id: u.id,
          name: u.uploaded_name,
          size: Number(u.size),
          uploaded_at: u.recorded_at,
        })),
    })),
  };
}

/**
 * GET /api/rest/public/requests/{token}: the request's page (its items only once unlocked). The
 * first open is noted for the advisor.
 * @throws AppError as resolveLink
 */
export async function requestPage(
  services: Services,
  token: string,
  access: string | undefined,
): Promise<PublicRequestDto> {
  const link = await resolveLink(services, token, access);
  if (link.recipient.opened_at === null && link.unlocked) {
    await updateRecipient(services.db, link.recipient.id, { opened_at: isoAt(services.clock) });
  }
  return present(services, link);
}

/**
 * POST /api/rest/public/requests/{token}/unlock: checks the request's password with the share
 * links' limits (config sharePasswordMaxFailures wrong ones in a row lock it for
 * sharePasswordLockMs; while locked every attempt is refused) and answers a grant valid
 * REQUEST_ACCESS_TTL_MS.
 * @throws AppError 403 `wrong_request_password`; 429 `request_locked`; as resolveLink
 */
export async function unlockRequest(
  services: Services,
  token: string,
  password: string,
): Promise<UnlockRequestResponse> {
  const { request, recipient } = await resolveLink(services, token, undefined);
  const now = services.clock();
  const expires = new Date(now + REQUEST_ACCESS_TTL_MS).toISOString();
  const grant = async () => {
    const { token: access, hash } = newAccessGrant();
    await updateRecipient(services.db, recipient.id, {
      access_hash: hash,
      access_expires_at: expires,
      ...(recipient.opened_at === null ? { opened_at: new Date(now).toISOString() } : {}),
    });
    return { access, expires_at: expires };
  };
  if (request.password_hash === null) return grant();
  const nowIso = new Date(now).toISOString();
  const locked = () => new AppError(429, 'request_locked', REQUEST_MESSAGES.locked);
  if (request.locked_until !== null && Date.parse(request.locked_until) > now) throw locked();
  if (password && (await verifyPassword(password, request.password_hash))) {
    if (!(await clearPasswordFailures(services.db, 'document_requests', request.id, nowIso)))
      throw locked();
    return grant();
  }
  const counted = await addPasswordFailure(
    services.db,
    'document_requests',
    request.id,
    nowIso,
    services.config.sharePasswordMaxFailures,
    new Date(now + services.config.sharePasswordLockMs).toISOString(),
  );
  if (counted.locked) throw locked();
  throw forbidden(REQUEST_MESSAGES.wrongPassword, 'wrong_request_password');
}

/** The item of the link's request an upload goes to. @throws AppError 404, 409 accepted */
async function uploadItem(services: Services, link: ResolvedLink, itemId: string) {
  const item = await findItem(services.db, link.request.id, itemId);
  if (!item) throw notFound(REQUEST_MESSAGES.notFound, 'no_such_item');
  if (item.state === 'accepted') throw conflict(REQUEST_MESSAGES.itemAccepted, 'item_accepted');
  return item;
}

/** Notes the upload an app step answered as started through the link. */
async function noteUpload(
  services: Services,
  link: ResolvedLink,
  itemId: string,
  uploadId: string,
  name: string,
): Promise<void> {
  await insertRequestUpload(services.db, {
    id: uploadId,
    request_id: link.request.id,
    item_id: itemId,
    recipient_id: link.recipient.id,
    name,
    created_at: isoAt(services.clock),
    recorded_at: null,
  });
}

/** The app's create-upload body of a recipient's start, in the request's target folder. */
function appUpload(link: ResolvedLink, input: RequestUploadStart) {
  return {
    folder_id: link.request.target_folder_id,
    name: input.name,
    extension: input.extension,
    content_type: input.content_type,
    ...(input.size !== undefined ? { size: input.size } : {}),
    ...(input.batch_id ? { batch_id: input.batch_id } : {}),
    ...(input.client_key ? { client_key: input.client_key } : {}),
  };
}

/**
 * POST …/files (single PUT) or …/files/multipart: starts an upload into an item, with the app's
 * rules and answers.
 * @throws AppError as the app's create-upload; 403 locked; 404 item; 409 request not open or
 *   item accepted
 */
export async function startRequestUpload(
  services: Services,
  token: string,
  access: string | undefined,
  input: RequestUploadStart,
  multipart: boolean,
  client: ClientInfo,
): Promise<CreateUploadOutcome<unknown>> {
  const link = await uploadingLink(services, token, access);
  const item = await uploadItem(services, link, input.item_id);
  const ctx = actingFor(link, client);
  const body = appUpload(link, input);
  const outcome: CreateUploadOutcome<{ id: string }> = multipart
    ? await createMultipartUpload(services, ctx, { ...body, size: input.size ?? 0 })
    : await createUpload(services, ctx, body);
  const uploadId = outcome.response.id;
  // A settled answer of an upload another route started is never handed to the link.
  if (!outcome.created) {
    const own = await findRecipientUpload(services.db, link.recipient.id, uploadId);
    if (!own) throw notFound('The upload does not exist or was cancelled.', 'no_such_upload');
  } else {
    await noteUpload(services, link, item.id, uploadId, input.name.trim());
  }
  return outcome;
}

/** The link's own upload `uploadId` and the context to act on it. @throws AppError 404 */
async function ownUpload(
  services: Services,
  token: string,
  access: string | undefined,
  uploadId: string,
  client: ClientInfo,
) {
  const link = await uploadingLink(services, token, access);
  const upload = await findRecipientUpload(services.db, link.recipient.id, uploadId);
  if (!upload) throw notFound('The upload does not exist or was cancelled.', 'no_such_upload');
  return { link, upload, ctx: actingFor(link, client) };
}

/** One signing step of a multipart upload the link started. */
export type MultipartStep =
  | { op: 'parts'; key: string; first: number; count: number }
  | { op: 'part'; key: string; partNumber: number }
  | { op: 'list'; key: string }
  | { op: 'complete'; key: string }
  | { op: 'abort'; key: string };

/**
 * The multipart steps (sign parts, list, complete, abort) of an upload the link started, with
 * the app's answers.
 * @throws AppError 404 for an upload the link did not start; as the app's steps
 */
export async function requestMultipartStep(
  services: Services,
  token: string,
  access: string | undefined,
  uploadId: string,
  step: MultipartStep,
  client: ClientInfo,
): Promise<{ parts: PresignedPartDto[] } | PresignedRequestDto> {
  const { ctx } = await ownUpload(services, token, access, uploadId, client);
  switch (step.op) {
    case 'parts':
      return {
        parts: await signUploadParts(services, ctx, uploadId, step.key, step.first, step.count),
      };
    case 'part':
      return signUploadPart(services, ctx, uploadId, step.partNumber, step.key);
    case 'list':
      return signListParts(services, ctx, uploadId, step.key);
    case 'complete':
      return signCompleteMultipart(services, ctx, uploadId, step.key);
    case 'abort':
      return abortMultipartUpload(services, ctx, uploadId, step.key);
  }
}

/**
 * POST …/files/record: records an upload the link started (the app's record: size and checksum
 * checks, the file's create event in the recipient's name), then, once per upload, marks its item
 * received, writes the request's 'upload' event and applies the item's index values.
 * @returns the refreshed page
 * @throws AppError 404 for an upload the link did not start; as the app's record
 */
export async function recordRequestUpload(
  services: Services,
  token: string,
  access: string | undefined,
  uploadId: string,
  sha256: string | undefined,
  client: ClientInfo,
): Promise<PublicRequestDto> {
  const { link, upload, ctx } = await ownUpload(services, token, access, uploadId, client);
  const file = await recordUpload(services, ctx, uploadId, sha256);
  const item = await findItem(services.db, link.request.id, upload.item_id);
  if (item) {
    const folder = await findFolder(services.db, link.request.database_id, link.request.folder_id);
    const first = await inTransaction(services, async (trx) => {
      if (!(await markUploadRecorded(trx, upload.id, isoAt(services.clock)))) return false;
      await moveItem(
        trx,
        item.id,
        ['missing', 'rejected', 'received'],
        'received',
        null,
        isoAt(services.clock),
      );
      await recordRequestEvent(trx, services, ctx, 'upload', link.request, {
        folderName: folder?.name ?? '',
        item: { id: item.id, name: item.name },
        file: { id: file.id, name: file.name },
      });
      return true;
    });
    const values = parseJsonList<StoredIndexValue>(item.index_values);
    if (first && values.length > 0) {
      try {
        await applyIndexes(services, ctx, {
          entity_id: file.id,
          indexes: values.map((v) => ({ indexFieldId: v.index_field_id, value: v.value })),
        });
      } catch (error) {
        // A field deleted or archived since the request was made no longer applies; the file
        // stays recorded and the advisor tags it by hand.
        if (!(error instanceof AppError)) throw error;
      }
    }
  }
  return requestPage(services, token, access);
}
