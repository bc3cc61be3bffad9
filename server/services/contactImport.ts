/**
 * Bringing CRM contacts in: the administrator's CSV import (POST
 * REST/private/contacts/import) and the partner apps' upsert (PUT /api/integrations/contacts,
 * authenticated with an integration key as GET private/auth/generate_token is). Both validate
 * each contact (name, e-mail of SPEC section 5, phones of sections 3 and 5 through common/phone.ts)
 * and upsert the valid ones in one transaction:
 * - with a CRM id: the firm's contact with that crm_id is updated, or one is created;
 * - without one (CSV only): the firm's contact without a CRM id with the same name and e-mail
 *   (case-insensitive) is updated, or one is created.
 * A field that is absent (a CSV column missing from the header, a JSON key left out) keeps the
 * stored value on update; an empty one clears it. Invalid contacts are answered in `rejected` with
 * their line (CSV, the header is line 1) or index (partner batch, from 0) and the reason.
 */
import { parse } from 'csv-parse/sync';
import {
  CONTACT_BATCH_MAX,
  CONTACT_CRM_ID_MAX,
  CONTACT_CSV_PHONE_SEPARATOR,
  CONTACT_IMPORT_MAX_LINES,
  CONTACT_MESSAGES,
  CONTACT_NAME_MAX,
  type ContactImportResult,
  type ContactRejection,
  type PartnerContactInput,
} from '@common/contacts';
import { isValidEmail } from '@common/email';
import { nameKey } from '@common/names';
import {
  normalisePhone,
  PHONE_ERROR_MESSAGES,
  type PhoneDto,
  type PhoneParseResult,
} from '@common/phone';
import type { ContactRow, ContactsTable } from '../db/schemaContacts';
import { badRequest, forbidden, unauthorized } from '../errors';
import { newId } from '../ids';
import { maintenanceRefused } from '../plugins/maintenance';
import {
  findContactsByCrmIds,
  findContactsWithoutCrmIdByNameKeys,
  insertContacts,
  updateContact,
} from '../repositories/contacts';
import {
  findKeyByHash,
  insertKeyUse,
  integrationsEnabled,
  touchKey,
} from '../repositories/integrations';
import type { Executor } from '../repositories/types';
import { findUserById, roleIn } from '../repositories/users';
import { assertAdmin } from './access';
import type { ClientInfo } from './auth';
import type { RequestContext, Services } from './context';
import { secretHash } from './integrations';
import {
  INTEGRATIONS_DISABLED_MESSAGE,
  INVALID_KEY_MESSAGE,
  USER_UNAVAILABLE_MESSAGE,
} from './sso';
import { storedPhones } from './contacts';

/** A contact as sent, before validation; undefined fields keep the stored value on update. */
export interface RawContact {
  crm_id?: string | null;
  name?: unknown;
  email?: unknown;
  phones?: unknown[];
}

/** A validated contact. */
interface ValidContact {
  line: number;
  crmId: string | null;
  name: string;
  nameKey: string;
  email: string | null | undefined;
  phones: PhoneDto[] | undefined;
}

function phoneReason(text: unknown, result: PhoneParseResult & { ok: false }): string {
  const shown = typeof text === 'string' ? text : JSON.stringify(text);
  return `Phone "${shown.slice(0, 40)}": ${PHONE_ERROR_MESSAGES[result.error]} (${result.error})`;
}

/**
 * Validates one contact.
 * @returns the valid contact, or the reason it is refused (a user-facing sentence)
 */
export function validateContact(
  raw: RawContact,
  line: number,
  requireCrmId = false,
): ValidContact | string {
  const name = typeof raw.name === 'string' ? raw.name.trim() : '';
  if (name === '') return CONTACT_MESSAGES.nameRequired;
  if (name.length > CONTACT_NAME_MAX) return CONTACT_MESSAGES.nameTooLong;
  let crmId: string | null = null;
  if (raw.crm_id !== undefined && raw.crm_id !== null) {
    crmId = String(raw.crm_id).trim() || null;
    if (crmId !== null && crmId.length > CONTACT_CRM_ID_MAX) return CONTACT_MESSAGES.crmIdTooLong;
  }
  if (requireCrmId && crmId === null) return CONTACT_MESSAGES.crmIdRequired;
  let email: string | null | undefined;
  if (raw.email !== undefined) {
    email = typeof raw.email === 'string' ? raw.email.trim() || null : null;
    if (email !== null && !isValidEmail(email)) return CONTACT_MESSAGES.invalidEmail;
  }
  let phones: PhoneDto[] | undefined;
  if (raw.phones !== undefined) {
    phones = [];
    for (const text of raw.phones) {
      if (typeof text === 'string' && text.trim() === '') continue;
      const result = normalisePhone(typeof text === 'string' ? text.trim() : text);
      if (!result.ok) return phoneReason(text, result);
      if (
        !phones.some(
          (p) => p.country_code === result.phone.country_code && p.number === result.phone.number,
        )
      ) {
        phones.push(result.phone);
      }
    }
  }
  return { line, crmId, name, nameKey: nameKey(name), email, phones };
}

/** The identity of a contact without a CRM id: its name and e-mail, lowercased. */
function looseKey(nameKeyText: string, email: string | null | undefined): string {
  return `${nameKeyText}\u0000${(email ?? '').toLowerCase()}`;
}

/**
 * Validates and upserts contacts into a firm in one transaction (see the module comment).
 * @param raws the contacts with their line (CSV) or index (partner batch)
 * @param requireCrmId refuse contacts without a CRM id (the partner upsert)
 */
export async function upsertContacts(
  trx: Executor,
  services: Services,
  databaseId: string,
  raws: { line: number; contact: RawContact }[],
  requireCrmId = false,
): Promise<ContactImportResult> {
  const rejected: ContactRejection[] = [];
  const valid: ValidContact[] = [];
  const seenCrm = new Set<string>();
  const seenLoose = new Set<string>();
  for (const { line, contact } of raws) {
    const checked = validateContact(contact, line, requireCrmId);
    if (typeof checked === 'string') {
      rejected.push({ line, reason: checked });
      continue;
    }
    if (checked.crmId !== null) {
      if (seenCrm.has(checked.crmId)) {
        rejected.push({ line, reason: CONTACT_MESSAGES.duplicateCrmId });
        continue;
      }
      seenCrm.add(checked.crmId);
    } else {
      const key = looseKey(checked.nameKey, checked.email);
      if (seenLoose.has(key)) {
        rejected.push({ line, reason: CONTACT_MESSAGES.duplicateContact });
        continue;
      }
      seenLoose.add(key);
    }
    valid.push(checked);
  }

  const byCrm = new Map<string, ContactRow>();
  for (const row of await findContactsByCrmIds(trx, databaseId, [...seenCrm])) {
    if (row.crm_id !== null) byCrm.set(row.crm_id, row);
  }
  const looseNameKeys = [...new Set(valid.filter((v) => v.crmId === null).map((v) => v.nameKey))];
  const byLoose = new Map<string, ContactRow>();
  for (const row of await findContactsWithoutCrmIdByNameKeys(trx, databaseId, looseNameKeys)) {
    const key = looseKey(row.name_key, row.email);
    if (!byLoose.has(key)) byLoose.set(key, row);
  }

  const now = new Date(services.clock()).toISOString();
  const inserts: ContactsTable[] = [];
  let updated = 0;
  for (const v of valid) {
    const existing =
      v.crmId !== null ? byCrm.get(v.crmId) : byLoose.get(looseKey(v.nameKey, v.email));
    if (existing) {
      await updateContact(trx, databaseId, existing.id, {
        name: v.name,
        name_key: v.nameKey,
        email: v.email === undefined ? existing.email : v.email,
        phones: JSON.stringify(v.phones ?? storedPhones(existing.phones)),
        updated_at: now,
      });
      updated += 1;
    } else {
      inserts.push({
        id: newId(),
        database_id: databaseId,
        crm_id: v.crmId,
        name: v.name,
        name_key: v.nameKey,
        email: v.email ?? null,
        phones: JSON.stringify(v.phones ?? []),
        created_at: now,
        updated_at: now,
      });
    }
  }
  await insertContacts(trx, inserts);
  return { created: inserts.length, updated, rejected };
}

/** The CSV's records with their line numbers (the header is line 1). */
function csvRecords(csv: string): { line: number; record: Record<string, string> }[] {
  let rows: { record: Record<string, string>; info: { lines: number } }[];
  try {
    rows = parse<{ record: Record<string, string>; info: { lines: number } }>(csv, {
      bom: true,
      columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
    });
  } catch (error) {
    const detail = error instanceof Error ? ` ${error.message}` : '';
    throw badRequest(`${CONTACT_MESSAGES.csvUnreadable}${detail}`, 'csv_unreadable');
  }
  return rows.map(({ record, info }) => ({ line: info.lines, record }));
}

/** The header names of a CSV text (its first non-empty line), lowercased. */
function csvHeader(csv: string): string[] {
  const first =
    csv
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)
      .find((l) => l.trim() !== '') ?? '';
  try {
    const names: unknown = parse(first, { relax_column_count: true })[0];
    if (!Array.isArray(names)) return [];
    return names.map((h) => String(h).trim().toLowerCase());
  } catch {
    return [];
  }
}

/**
 * POST REST/private/contacts/import: the administrator's CSV import into the session's firm. The
 * header names the columns name (required), email, phone and crm_id, in any order (others are
 * ignored); several phones in one cell are separated by ";".
 * @returns how many contacts were created and updated, and the refused lines with the reason
 * @throws AppError 403 for anyone but an administrator; 400 when the CSV cannot be read, has no
 *   name column, no contacts, or more than CONTACT_IMPORT_MAX_LINES lines
 */
export async function importContactsCsv(
  services: Services,
  ctx: RequestContext,
  csv: string,
): Promise<ContactImportResult> {
  assertAdmin(ctx);
  const header = csvHeader(csv);
  if (!header.includes('name')) throw badRequest(CONTACT_MESSAGES.csvHeader, 'csv_header');
  const records = csvRecords(csv);
  if (records.length === 0) throw badRequest(CONTACT_MESSAGES.csvEmpty, 'csv_empty');
  if (records.length > CONTACT_IMPORT_MAX_LINES) {
    throw badRequest(CONTACT_MESSAGES.csvTooManyLines, 'csv_too_many_lines');
  }
  const has = (column: string) => header.includes(column);
  const raws = records.map(({ line, record }) => ({
    line,
    contact: {
      name: record.name,
      crm_id: has('crm_id') ? (record.crm_id ?? null) : undefined,
      email: has('email') ? (record.email ?? '') : undefined,
      phones: has('phone')
        ? (record.phone ?? '').split(CONTACT_CSV_PHONE_SEPARATOR).filter((p) => p.trim() !== '')
        : undefined,
    },
  }));
  return services.db
    .transaction()
    .execute((trx) => upsertContacts(trx, services, ctx.databaseId, raws));
}

type KeyOutcome = 'ok' | 'integrations_disabled' | 'user_unavailable' | 'read_only';

/**
 * PUT /api/integrations/contacts: a partner app's upsert by crm_id into the firm of its
 * integration key (`Authorization: Bearer <key>`), at most CONTACT_BATCH_MAX (1000) contacts. The
 * key's use is recorded (action `contacts_upsert`) like the sign-in token's.
 * @returns created and updated counts and the refused contacts by index (from 0)
 * @throws AppError 401 `invalid_key` for a missing, unknown, rotated or deleted key; 403
 *   `integrations_disabled` while the firm's integrations are off; 403 `user_unavailable` when the
 *   key's user is disabled or no longer a member; 403 `read_only` when that user is a
 *   read-only member; 400 for more than 1000 contacts; 503 in maintenance mode
 */
export async function upsertPartnerContacts(
  services: Services,
  key: string | null,
  client: ClientInfo,
  contacts: PartnerContactInput[],
): Promise<ContactImportResult> {
  if (!key) throw unauthorized(INVALID_KEY_MESSAGE, 'invalid_key');
  const keyRow = await findKeyByHash(services.db, secretHash(key));
  if (!keyRow) throw unauthorized(INVALID_KEY_MESSAGE, 'invalid_key');
  if (services.config.featureFlags.maintenanceMode) throw maintenanceRefused();
  if (contacts.length > CONTACT_BATCH_MAX) throw badRequest(CONTACT_MESSAGES.batchTooLarge);
  const answer = await services.db.transaction().execute(async (trx) => {
    let outcome: KeyOutcome = 'ok';
    const user = await findUserById(trx, keyRow.user_id);
    const role = user ? await roleIn(trx, user.id, keyRow.database_id) : undefined;
    if (!(await integrationsEnabled(trx, keyRow.database_id))) outcome = 'integrations_disabled';
    else if (!user || user.disabled_at !== null || !role) {
      outcome = 'user_unavailable';
    } else if (role === 'read_only') outcome = 'read_only';
    const at = new Date(services.clock()).toISOString();
    await insertKeyUse(trx, {
      id: newId(),
      key_id: keyRow.id,
      database_id: keyRow.database_id,
      action: 'contacts_upsert',
      outcome,
      used_at: at,
      ip: client.ip,
      user_agent: client.userAgent,
    });
    if (outcome !== 'ok') return outcome;
    await touchKey(trx, keyRow.id, at, client.ip);
    return upsertContacts(
      trx,
      services,
      keyRow.database_id,
      contacts.map((contact, index) => ({
        line: index,
        contact: {
          crm_id: contact.crm_id,
          name: contact.name,
          email: contact.email,
          phones: contact.phones,
        },
      })),
      true,
    );
  });
  if (answer === 'integrations_disabled') {
    throw forbidden(INTEGRATIONS_DISABLED_MESSAGE, 'integrations_disabled');
  }
  if (answer === 'user_unavailable') throw forbidden(USER_UNAVAILABLE_MESSAGE, 'user_unavailable');
  if (answer === 'read_only') throw forbidden(CONTACT_MESSAGES.readOnlyKey, 'read_only');
  return answer;
}
