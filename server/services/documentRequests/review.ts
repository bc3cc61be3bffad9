/**
 * Reviewing a request's items (docs/architecture.md "Document requests"): an item with an upload
 * ('received') is accepted or rejected in one click; a rejection keeps the reason the recipient
 * sees and e-mails them; the request completes in the transaction of the last acceptance. Each
 * review is one guarded update (an item reviewed twice at once is reviewed once).
 */
import {
  REQUEST_MESSAGES,
  REQUEST_REASON_MAX,
  type DocumentRequestDto,
} from '@common/documentRequests';
import { badRequest, conflict, notFound } from '../../errors';
import { isoAt } from '../../ids';
import {
  closeRequest,
  countUnaccepted,
  findItem,
  moveItem,
} from '../../repositories/documentRequests';
import type { RequestContext, Services } from '../context';
import { inTransaction } from '../transactions';
import { recordRequestEvent } from './events';
import { deliverDueReminders, oneOffReminders, scheduleReminders } from './reminders';
import { openRequestFor, presentRequest, visibleRequest } from './requests';

/** The item of an open request the session may review. @throws AppError 404, 403, 409 */
async function reviewable(services: Services, ctx: RequestContext, id: string, itemId: string) {
  const request = await openRequestFor(services.db, ctx, id, services.clock());
  const item = await findItem(services.db, request.id, itemId);
  if (!item) throw notFound(REQUEST_MESSAGES.notFound, 'no_such_item');
  if (item.state === 'accepted') throw conflict(REQUEST_MESSAGES.itemAccepted, 'item_accepted');
  if (item.state !== 'received') {
    throw conflict(REQUEST_MESSAGES.nothingToReview, 'nothing_to_review');
  }
  return { request, item };
}

/**
 * POST /api/rest/requests/{id}/items/{itemId}/accept: the item is accepted; when it was the last
 * one not accepted, the request completes (a 'complete' event; its pending e-mails are skipped).
 * @throws AppError 404 request or item, 403 read-only, 409 not open / nothing to review / accepted
 */
export async function acceptItem(
  services: Services,
  ctx: RequestContext,
  id: string,
  itemId: string,
): Promise<DocumentRequestDto> {
  const { request, item } = await reviewable(services, ctx, id, itemId);
  await inTransaction(services, async (trx) => {
    const at = isoAt(services.clock);
    if (!(await moveItem(trx, item.id, ['received'], 'accepted', null, at))) {
      throw conflict(REQUEST_MESSAGES.nothingToReview, 'nothing_to_review');
    }
    const details = { folderName: request.folder_name, item: { id: item.id, name: item.name } };
    await recordRequestEvent(trx, services, ctx, 'accept', request, details);
    if ((await countUnaccepted(trx, request.id)) === 0) {
      if (await closeRequest(trx, request.id, 'completed', at)) {
        await recordRequestEvent(trx, services, ctx, 'complete', request, {
          folderName: request.folder_name,
        });
      }
    }
  });
  return presentRequest(services, ctx.databaseId, await visibleRequest(services.db, ctx, id));
}

/**
 * POST /api/rest/requests/{id}/items/{itemId}/reject: the item is rejected with a reason (the
 * recipient sees it and uploads again); the recipients get an e-mail.
 * @throws AppError 400 no reason; as acceptItem otherwise
 */
export async function rejectItem(
  services: Services,
  ctx: RequestContext,
  id: string,
  itemId: string,
  reasonText: string,
): Promise<DocumentRequestDto & { mail_failed?: boolean }> {
  const reason = reasonText.trim().slice(0, REQUEST_REASON_MAX);
  if (!reason) throw badRequest(REQUEST_MESSAGES.reasonRequired, 'reason_required');
  const { request, item } = await reviewable(services, ctx, id, itemId);
  const now = services.clock();
  await inTransaction(services, async (trx) => {
    if (!(await moveItem(trx, item.id, ['received'], 'rejected', reason, isoAt(services.clock)))) {
      throw conflict(REQUEST_MESSAGES.nothingToReview, 'nothing_to_review');
    }
    await scheduleReminders(trx, await oneOffReminders(trx, request.id, 'rejected', now, item.id));
    await recordRequestEvent(trx, services, ctx, 'reject', request, {
      folderName: request.folder_name,
      item: { id: item.id, name: item.name },
      reason,
    });
  });
  const delivery = await deliverDueReminders(services, { requestId: request.id, actor: ctx });
  const dto = await presentRequest(
    services,
    ctx.databaseId,
    await visibleRequest(services.db, ctx, id),
  );
  return delivery.failed > 0 ? { ...dto, mail_failed: true } : dto;
}
