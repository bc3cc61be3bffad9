/**
 * Request templates (docs/architecture.md "Document requests"): named checklists of a firm
 * ("New client onboarding", "Annual review") that fill a new request. Every member may read them;
 * only administrators create, change and remove them, each recorded in History.
 */
import {
  REQUEST_ITEM_NAME_MAX,
  REQUEST_MESSAGE_MAX,
  REQUEST_MESSAGES,
  type RequestTemplateDto,
  type RequestTemplateInput,
  type RequestTemplateListResponse,
} from '@common/documentRequests';
import { nameKey } from '@common/names';
import { badRequest, conflict, notFound } from '../../errors';
import { isoAt, newId } from '../../ids';
import {
  deleteTemplate as deleteTemplateRow,
  findTemplate,
  findTemplateByName,
  insertTemplate,
  listTemplates as listTemplateRows,
  updateTemplate as updateTemplateRow,
} from '../../repositories/documentRequests';
import { assertAdmin } from '../access';
import type { RequestContext, Services } from '../context';
import { inTransaction } from '../transactions';
import { recordTemplateEvent } from './events';
import { presentTemplate } from './presenters';
import { checkedItems } from './requests';

/** GET /api/rest/request_templates: the firm's templates by name (any member). */
export async function listTemplates(
  services: Services,
  ctx: RequestContext,
): Promise<RequestTemplateListResponse> {
  return { items: (await listTemplateRows(services.db, ctx.databaseId)).map(presentTemplate) };
}

/** The checked name, message and items of a template. @throws AppError 400, 404 (field), 409 */
async function checkedTemplate(
  services: Services,
  ctx: RequestContext,
  input: RequestTemplateInput,
  exceptId = '',
) {
  const name = input.name.trim();
  if (!name || name.length > REQUEST_ITEM_NAME_MAX) {
    throw badRequest(REQUEST_MESSAGES.templateNameRequired, 'template_name_required');
  }
  if (await findTemplateByName(services.db, ctx.databaseId, nameKey(name), exceptId)) {
    throw conflict(REQUEST_MESSAGES.templateNameTaken, 'template_name_taken');
  }
  const items = await checkedItems(services.db, ctx.databaseId, input.items);
  return {
    name,
    name_key: nameKey(name),
    message: (input.message ?? '').trim().slice(0, REQUEST_MESSAGE_MAX),
    items: JSON.stringify(items),
  };
}

/**
 * POST /api/rest/private/request_templates (administrators).
 * @throws AppError 403 not an administrator; 400 name or checklist; 409 name taken
 */
export async function createTemplate(
  services: Services,
  ctx: RequestContext,
  input: RequestTemplateInput,
): Promise<RequestTemplateDto> {
  assertAdmin(ctx);
  const fields = await checkedTemplate(services, ctx, input);
  const id = newId();
  const at = isoAt(services.clock);
  await inTransaction(services, async (trx) => {
    await insertTemplate(trx, {
      id,
      database_id: ctx.databaseId,
      ...fields,
      created_at: at,
      updated_at: at,
    });
    await recordTemplateEvent(trx, services, ctx, 'create', { id, name: fields.name });
  });
  return presentTemplate((await findTemplate(services.db, ctx.databaseId, id))!);
}

/**
 * PATCH /api/rest/private/request_templates/{id} (administrators): replaces name, message and
 * items.
 * @throws AppError 403; 404 not the firm's; as createTemplate
 */
export async function updateTemplate(
  services: Services,
  ctx: RequestContext,
  id: string,
  input: RequestTemplateInput,
): Promise<RequestTemplateDto> {
  assertAdmin(ctx);
  if (!(await findTemplate(services.db, ctx.databaseId, id))) throw notFound();
  const fields = await checkedTemplate(services, ctx, input, id);
  await inTransaction(services, async (trx) => {
    await updateTemplateRow(trx, ctx.databaseId, id, {
      ...fields,
      updated_at: isoAt(services.clock),
    });
    await recordTemplateEvent(trx, services, ctx, 'update', { id, name: fields.name });
  });
  return presentTemplate((await findTemplate(services.db, ctx.databaseId, id))!);
}

/**
 * DELETE /api/rest/private/request_templates/{id} (administrators); requests made from it keep
 * their checklists.
 * @throws AppError 403; 404 not the firm's
 */
export async function deleteTemplate(
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<void> {
  assertAdmin(ctx);
  const template = await findTemplate(services.db, ctx.databaseId, id);
  if (!template) throw notFound();
  await inTransaction(services, async (trx) => {
    await deleteTemplateRow(trx, ctx.databaseId, id);
    await recordTemplateEvent(trx, services, ctx, 'delete', { id, name: template.name });
  });
}
