/**
 * The examiner's export (docs/examiner-export.md): an administrator of the session's firm asks for
 * an export of a scope (POST examiner_exports), which checks and counts the scope and answers a
 * single-use download link; the browser downloads the link with a plain GET (streamed to disk,
 * shown by the browser's downloads), which records the export in History before the first byte
 * and streams the zip (examinerZip.ts), writing its progress to the export's row about once a
 * second; the client polls GET examiner_exports/{id} for a progress bar. Only administrators of
 * the firm may do any of it; ids of another firm are 404.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  EXAMINER_FILES_DIR,
  EXAMINER_LINK_TTL_MS,
  EXAMINER_MESSAGES,
  type ExaminerExportDto,
  type ExaminerExportPhase,
  type ExaminerExportRequest,
  type ExaminerExportStatus,
  type ExaminerScope,
  type ExaminerScopeDescription,
  type ExportVersions,
} from '@common/examinerExport';
import { AppError, badRequest, notFound } from '../errors';
import { newId } from '../ids';
import type { ExaminerExportRow } from '../db/schemaExaminer';
import { findContact } from '../repositories/contacts';
import {
  chainLinkById,
  contactNamesOfFolders,
  countScopeEvents,
  findExaminerExport,
  firmFileTotals,
  insertExaminerExport,
  liveFoldersOfContact,
  liveTreesTotals,
  takeExaminerExport,
  updateExaminerExport,
  type EventScope,
  type FileTotals,
} from '../repositories/examinerExports';
import { findFirmById } from '../repositories/firms';
import { folderChains } from '../repositories/lists';
import { assertAdmin, accessibleFolder } from './access';
import type { RequestContext, Services } from './context';
import { idLowerBound } from './historyChain';
import { recordUserDownload } from './historyEvents';
import {
  openExaminerZip,
  walkRange,
  walkRoots,
  type ExportBatch,
  type ExportCounts,
  type ExportRoot,
} from './examinerZip';
import { segment } from './zip';

/** How often a running export stores its progress, in milliseconds. */
export const PROGRESS_WRITE_MS = 1000;

/** A scope checked and resolved for the session. */
interface ResolvedScope {
  description: ExaminerScopeDescription;
  /** The folders whose trees the zip walks (tree scopes), or null (a date range). */
  roots: ExportRoot[] | null;
  range: { start: string; end: string } | null;
  events: EventScope;
  /** A name for the zip's file name. */
  label: string;
}

/** The display path of a folder chain ("Clients / Smith family"). */
const displayPath = (chain: { name: string }[]) => chain.map((c) => c.name).join(' / ');

/** A folder chain's path in the zip (`files/Clients/Smith family`). */
const zipPath = (chain: { name: string }[]) =>
  [EXAMINER_FILES_DIR, ...chain.map((c) => segment(c.name))].join('/');

/**
 * Tree roots for some folders: each with its path and the contacts linked to it or above it;
 * a folder inside another of the list is left out (its tree is in the other's).
 */
async function rootsOf(
  services: Services,
  databaseId: string,
  folders: { id: string; updated_at: string }[],
): Promise<{ roots: ExportRoot[]; chains: Map<string, { id: string; name: string }[]> }> {
  const chains = await folderChains(
    services.db,
    databaseId,
    folders.map((f) => f.id),
  );
  const chosen = new Set(folders.map((f) => f.id));
  const kept = folders.filter((f) =>
    (chains.get(f.id) ?? []).every((c) => c.id === f.id || !chosen.has(c.id)),
  );
  const contacts = new Map<string, string[]>();
  for (const { folder_id, name } of await contactNamesOfFolders(services.db, databaseId, [
    ...new Set(kept.flatMap((f) => (chains.get(f.id) ?? []).map((c) => c.id))),
  ])) {
    contacts.set(folder_id, [...(contacts.get(folder_id) ?? []), name]);
  }
  const roots = kept.map((f) => {
    const chain = chains.get(f.id) ?? [];
    return {
      id: f.id,
      updated_at: f.updated_at,
      path: zipPath(chain),
      contacts: [...new Set(chain.flatMap((c) => contacts.get(c.id) ?? []))],
    };
  });
  roots.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { roots, chains };
}

/** Parses an ISO time of a date range. */
function rangeTime(value: string): number {
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) throw badRequest(EXAMINER_MESSAGES.invalidDate, 'invalid_date');
  return ms;
}

/**
 * Checks a scope for the session and resolves it: the folder (live, of the firm), the contact
 * (of the firm, with live linked folders), the date range (start before end), or the firm.
 * @throws AppError 400 root_folder / invalid_date / invalid_range / contact_without_folders,
 *   404 for a folder or contact that is not the firm's (or an archived folder)
 */
async function resolveScope(
  services: Services,
  ctx: RequestContext,
  scope: ExaminerScope,
): Promise<ResolvedScope> {
  const { db } = services;
  switch (scope.kind) {
    case 'folder': {
      if (!scope.folder_id) throw badRequest(EXAMINER_MESSAGES.rootFolder, 'root_folder');
      const folder = await accessibleFolder(db, ctx, scope.folder_id, 'read');
      if (!folder) throw notFound();
      const { roots, chains } = await rootsOf(services, ctx.databaseId, [folder]);
      return {
        description: {
          kind: 'folder',
          folder_id: folder.id,
          path: displayPath(chains.get(folder.id) ?? [folder]),
        },
        roots,
        range: null,
        events: { kind: 'trees', rootIds: [folder.id] },
        label: folder.name,
      };
    }
    case 'contact': {
      const contact = await findContact(db, ctx.databaseId, scope.contact_id);
      if (!contact) throw notFound();
      const folders = await liveFoldersOfContact(db, ctx.databaseId, contact.id);
      if (folders.length === 0) {
        throw badRequest(EXAMINER_MESSAGES.contactWithoutFolders, 'contact_without_folders');
      }
      const { roots, chains } = await rootsOf(services, ctx.databaseId, folders);
      return {
        description: {
          kind: 'contact',
          contact_id: contact.id,
          name: contact.name,
          folders: roots.map((r) => ({ id: r.id, path: displayPath(chains.get(r.id) ?? []) })),
        },
        roots,
        range: null,
        events: { kind: 'trees', rootIds: roots.map((r) => r.id) },
        label: contact.name,
      };
    }
    case 'date_range': {
      const start = rangeTime(scope.start);
      const end = rangeTime(scope.end);
      if (start >= end) throw badRequest(EXAMINER_MESSAGES.invalidRange, 'invalid_range');
      const range = { start: new Date(start).toISOString(), end: new Date(end).toISOString() };
      const lastDay = new Date(end - 1).toISOString().slice(0, 10);
      return {
        description: { kind: 'date_range', ...range },
        roots: null,
        range,
        events: { kind: 'range', fromId: idLowerBound(start), beforeId: idLowerBound(end) },
        label: `${range.start.slice(0, 10)} to ${lastDay}`,
      };
    }
    case 'firm':
      return {
        description: { kind: 'firm' },
        roots: [
          {
            id: '',
            updated_at: new Date(services.clock()).toISOString(),
            path: EXAMINER_FILES_DIR,
            contacts: [],
          },
        ],
        range: null,
        events: { kind: 'all' },
        label: 'whole firm',
      };
    default:
      throw badRequest('Unknown scope.', 'invalid_scope');
  }
}

/** The files a resolved scope holds now (newest versions). */
function scopeTotals(services: Services, databaseId: string, resolved: ResolvedScope) {
  if (resolved.range) return firmFileTotals(services.db, databaseId, resolved.range);
  const roots = resolved.roots ?? [];
  if (roots.some((r) => r.id === '')) return firmFileTotals(services.db, databaseId);
  return liveTreesTotals(
    services.db,
    databaseId,
    roots.map((r) => r.id),
  );
}

/** The request's scope of a stored description (to check it again when the download starts). */
function scopeOf(description: ExaminerScopeDescription): ExaminerScope {
  switch (description.kind) {
    case 'folder':
      return { kind: 'folder', folder_id: description.folder_id };
    case 'contact':
      return { kind: 'contact', contact_id: description.contact_id };
    case 'date_range':
      return { kind: 'date_range', start: description.start, end: description.end };
    default:
      return { kind: 'firm' };
  }
}

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** An export row as the API answers it (`url` only in the POST's answer). */
function presentExport(row: ExaminerExportRow, now: string, url: string | null = null) {
  const status: ExaminerExportStatus =
    row.status === 'ready' && row.expires_at <= now
      ? 'expired'
      : (row.status as ExaminerExportStatus);
  const dto: ExaminerExportDto = {
    id: row.id,
    status,
    phase: status === 'running' ? (row.phase as ExaminerExportPhase | null) : null,
    url,
    expires_at: row.expires_at,
    file_name: row.file_name,
    scope: JSON.parse(row.scope) as ExaminerScopeDescription,
    versions: row.versions as ExportVersions,
    files_total: Number(row.files_total),
    bytes_total: Number(row.bytes_total),
    events_total: Number(row.events_total),
    files_done: Number(row.files_done),
    bytes_done: Number(row.bytes_done),
    events_done: Number(row.events_done),
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
    manifest_sha256: row.manifest_sha256,
    error: row.error,
  };
  return dto;
}

/**
 * POST REST/examiner_exports: checks the scope, counts it (files of the newest versions, their
 * bytes, history events) and answers the export with a single-use download link valid for
 * EXAMINER_LINK_TTL_MS. Only the token's sha256 is stored.
 * @throws AppError 403 admin_only for anyone but an administrator of the firm; 400 / 404 as
 *   resolveScope
 */
export async function createExaminerExport(
  services: Services,
  ctx: RequestContext,
  request: ExaminerExportRequest,
): Promise<ExaminerExportDto> {
  assertAdmin(ctx);
  const versions: ExportVersions = request.versions ?? 'newest';
  const resolved = await resolveScope(services, ctx, request.scope);
  const totals: FileTotals = await scopeTotals(services, ctx.databaseId, resolved);
  const events = await countScopeEvents(services.db, ctx.databaseId, resolved.events);
  const now = services.clock();
  const createdAt = new Date(now).toISOString();
  const token = randomBytes(32).toString('base64url');
  const row: ExaminerExportRow = {
    id: newId(),
    database_id: ctx.databaseId,
    user_id: ctx.userId,
    token_hash: tokenHash(token),
    scope: JSON.stringify(resolved.description),
    versions,
    file_name: `Examiner export - ${segment(resolved.label)} - ${createdAt.slice(0, 10)}.zip`,
    status: 'ready',
    phase: null,
    files_total: totals.files,
    bytes_total: totals.bytes,
    events_total: events,
    files_done: 0,
    bytes_done: 0,
    events_done: 0,
    created_at: createdAt,
    expires_at: new Date(now + EXAMINER_LINK_TTL_MS).toISOString(),
    started_at: null,
    finished_at: null,
    event_id: null,
    manifest_sha256: null,
    error: null,
  };
  await insertExaminerExport(services.db, row);
  return presentExport(row, createdAt, `/api/rest/examiner_exports/zip/${token}`);
}

/**
 * GET REST/examiner_exports/{id}: an export of the firm and its progress.
 * @throws AppError 403 admin_only for anyone but an administrator; 404 for an unknown id or
 *   another firm's
 */
export async function examinerExportProgress(
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<ExaminerExportDto> {
  assertAdmin(ctx);
  const row = await findExaminerExport(services.db, ctx.databaseId, id);
  if (!row) throw notFound();
  return presentExport(row, new Date(services.clock()).toISOString());
}

/** A started export: its file name and its bytes. */
export interface ExaminerZip {
  fileName: string;
  /** The zip; an error after the first byte ends the stream (the client sees a failed download). */
  body: Readable;
}

/**
 * GET REST/examiner_exports/zip/{token}: takes the session's own export link (single use), checks
 * its scope again, records the export in History (a user `download` event with `export: { kind:
 * 'examiner', … }`; on a folder's export also in that folder's history) before the first byte, and
 * streams the zip. The export event is the chain's head when the export starts: the zip's history
 * holds the scope's events before it, and its manifest the event itself.
 * @param onError told why a zip broke off (the response is cut then)
 * @throws AppError 403 admin_only for anyone but an administrator; 404 zip_expired for an unknown,
 *   used, expired token or another user's; 400 / 404 when the scope is no longer valid
 */
export async function openExaminerExport(
  services: Services,
  ctx: RequestContext,
  token: string,
  onError: (error: Error) => void = () => undefined,
): Promise<ExaminerZip> {
  assertAdmin(ctx);
  const now = new Date(services.clock()).toISOString();
  const row = await services.db
    .transaction()
    .execute((trx) => takeExaminerExport(trx, tokenHash(token), ctx.userId, ctx.databaseId, now));
  if (!row) throw new AppError(404, 'zip_expired', EXAMINER_MESSAGES.linkExpired);
  const fail = (message: string) =>
    updateExaminerExport(services.db, row.id, {
      status: 'failed',
      phase: null,
      error: message,
      finished_at: new Date(services.clock()).toISOString(),
    });
  let resolved: ResolvedScope;
  try {
    resolved = await resolveScope(
      services,
      ctx,
      scopeOf(JSON.parse(row.scope) as ExaminerScopeDescription),
    );
  } catch (error) {
    await fail(error instanceof AppError ? error.message : 'The scope could not be read.');
    throw error;
  }
  const versions = row.versions as ExportVersions;
  const folder =
    resolved.description.kind === 'folder'
      ? { id: resolved.description.folder_id, name: resolved.label }
      : null;
  const eventId = await services.db.transaction().execute((trx) =>
    recordUserDownload(trx, services, ctx, {
      ...(folder ? { folders: [folder] } : {}),
      export: {
        kind: 'examiner',
        file_name: row.file_name,
        scope: resolved.description,
        versions,
      },
    }),
  );
  const exportEvent = await chainLinkById(services.db, ctx.databaseId, eventId);
  const firm = await findFirmById(services.db, ctx.databaseId);
  await updateExaminerExport(services.db, row.id, { event_id: eventId });
  const batches: AsyncIterable<ExportBatch> = resolved.range
    ? walkRange(services.db, ctx.databaseId, resolved.range)
    : walkRoots(services.db, ctx.databaseId, resolved.roots ?? []);
  let lastWrite = 0;
  let lastPhase: ExaminerExportPhase = 'files';
  const store = (phase: ExaminerExportPhase, counts: ExportCounts) =>
    updateExaminerExport(services.db, row.id, {
      phase,
      files_done: counts.files,
      bytes_done: counts.bytes,
      events_done: counts.events,
    });
  const body = openExaminerZip(
    {
      services,
      firm: { id: ctx.databaseId, name: firm?.description || firm?.name || '' },
      scope: resolved.description,
      versions,
      exportedBy: { user_id: ctx.userId, name: ctx.userName },
      exportEvent: exportEvent!,
      batches,
      events: resolved.events,
      expectedBytes: Number(row.bytes_total),
    },
    {
      progress: async (phase, counts) => {
        const at = services.clock();
        if (phase === lastPhase && at - lastWrite < PROGRESS_WRITE_MS) return;
        lastWrite = at;
        lastPhase = phase;
        await store(phase, counts);
      },
      done: async (manifestSha256, counts) => {
        await updateExaminerExport(services.db, row.id, {
          status: 'done',
          phase: null,
          files_done: counts.files,
          bytes_done: counts.bytes,
          events_done: counts.events,
          manifest_sha256: manifestSha256,
          finished_at: new Date(services.clock()).toISOString(),
        });
      },
      failed: async (error) => {
        onError(error);
        await fail(
          error.message === 'The zip stream was closed.'
            ? EXAMINER_MESSAGES.abandoned
            : 'The export stopped: a stored file or the database could not be read.',
        );
      },
    },
  );
  return { fileName: row.file_name, body };
}
