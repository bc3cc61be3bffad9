// Fixtures and helpers of the client tests that need no React: DTO factories, a fetch stub, a
// store that records actions.
import { jest } from '@jest/globals';
import type { Action, Middleware } from '@reduxjs/toolkit';
import type { Page } from '@common/api';
import type { FileDto, FolderDto } from '@common/entities';
import type { HistoryEventDto } from '@common/history';
import type { CurrentUserDto } from '@common/session';
import { initialSessionState } from '@src/features/session/sessionSlice';
import type { RootState } from '@src/store/rootReducer';
import { makeStore } from '@src/store/store';

/** A signed-in user; `databases` has two firms unless overridden. */
export function makeUser(overrides: Partial<CurrentUserDto> = {}): CurrentUserDto {
  return {
    userId: 'u1',
    firstName: 'Ada',
    lastName: 'Lovelace',
    username: 'ada',
    email: 'ada@example.com',
    sso: false,
    databases: [
      { id: 'db1', name: 'north', description: 'North Advisors', role: 'admin' },
      { id: 'db2', name: 'south', description: 'South Wealth', role: 'member' },
    ],
    currentDatabaseId: 'db1',
    sessionMinutes: 30,
    sessionIdleSeconds: 1800,
    sessionIdleRemainingMs: 1_800_000,
    ...overrides,
  };
}

/** A folder DTO. */
export function makeFolder(overrides: Partial<FolderDto> = {}): FolderDto {
  return {
    id: 'f1',
    type: 'folder',
    name: 'Clients',
    parent_id: '',
    created_at: '2024-03-05T14:07:00.000Z',
    updated_at: '2024-03-05T14:07:00.000Z',
    created_by: 'u1',
    created_by_name: 'Ada Lovelace',
    archived_at: null,
    favorite: false,
    favorites: [],
    color: null,
    ...overrides,
  };
}

/** A file DTO. */
export function makeFile(overrides: Partial<FileDto> = {}): FileDto {
  return {
    id: 'file1',
    type: 'file',
    name: 'Statement.pdf',
    extension: 'pdf',
    folder_id: '',
    size: 1536,
    content_type: 'application/pdf',
    status: 'ready',
    sha256: null,
    created_by: 'u1',
    created_by_name: 'Ada Lovelace',
    database_id: 'db1',
    created_at: '2024-03-05T14:07:00.000Z',
    updated_at: '2024-03-06T09:30:00.000Z',
    archived_at: null,
    favorite: false,
    favorites: [],
    thumbnail: false,
    ...overrides,
  };
}

/** A history event DTO. */
export function makeEvent(overrides: Partial<HistoryEventDto> = {}): HistoryEventDto {
  return {
    id: 'e1',
    entity_type: 'folder',
    entity_id: 'f1',
    action: 'create',
    user_id: 'u1',
    user_name: 'Ada Lovelace',
    attributes: { name: 'Reports' },
    created_at: '2024-03-05T14:07:00.000Z',
    ...overrides,
  };
}

/** A page of a list. */
export function makePage<T>(items: T[], page = 1, total = items.length, pageSize = 100): Page<T> {
  return { items, page, page_size: pageSize, total };
}

/** One recorded fetch call. */
export interface FetchCall {
  url: string;
  method: string;
  body: unknown;
  credentials: RequestCredentials | undefined;
}

/** A reply of the fetch stub. */
export interface StubReply {
  status?: number;
  /** Sent as JSON, unless `text` is given. */
  body?: unknown;
  /** The raw reply text (a CSV download), in place of `body`. */
  text?: string;
  /** Reply headers (names case-insensitive). */
  headers?: Record<string, string>;
}

/**
 * Replaces global fetch with a stub that answers through `handler` (200 with the body by
 * default) and records the calls.
 */
export function stubFetch(handler: (call: FetchCall) => StubReply | Promise<StubReply>) {
  const calls: FetchCall[] = [];
  const fetchStub = jest.fn(async (input: string, init?: RequestInit) => {
    const call: FetchCall = {
      url: input,
      method: init?.method ?? 'GET',
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      credentials: init?.credentials,
    };
    calls.push(call);
    const reply = await handler(call);
    const status = reply.status ?? 200;
    const text = reply.text ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
    const headers = Object.fromEntries(
      Object.entries(reply.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
    );
    return {
      ok: status >= 200 && status < 300,
      status,
      headers: { get: (name: string) => headers[name.toLowerCase()] ?? null },
      text: async () => text,
      json: async () => JSON.parse(text) as unknown,
      blob: async () => new Blob([text]),
    };
  });
  Object.defineProperty(globalThis, 'fetch', {
    configurable: true,
    writable: true,
    value: fetchStub,
  });
  return { calls, fetchStub };
}

/** A store that also records every dispatched action. */
export function makeRecordingStore(preloadedState?: Partial<RootState>) {
  const actions: Action[] = [];
  const recorder: Middleware = () => (next) => (action) => {
    actions.push(action as Action);
    return next(action);
  };
  const store = makeStore(preloadedState, { middleware: [recorder] });
  return { store, actions, types: () => actions.map((action) => action.type) };
}

/** Preloaded session state of a signed-in user. */
export function signedInState(user: CurrentUserDto = makeUser()): Partial<RootState> {
  return { session: { ...initialSessionState, user, status: 'succeeded' } };
}

/** Waits for pending promise callbacks (saga steps after a resolved call). */
export async function flushPromises(times = 5): Promise<void> {
  for (let i = 0; i < times; i += 1) await Promise.resolve();
}

/** A route table of {@link stubRoutes}: "METHOD /path" (query ignored) to a reply or a handler. */
export type StubRoutes = Record<
  string,
  StubReply | ((call: FetchCall) => StubReply | Promise<StubReply>)
>;

/** A file's rendition route, which the lists' thumbnail polling asks while rows are on screen. */
const RENDITION_ROUTE = /^GET \/api\/rest\/(shared\/)?files\/[^/]+\/rendition$/;

/**
 * What an unstubbed rendition route answers: the derivation finished without a thumbnail, so the
 * lists' thumbnail polling asks once per file and stops (a test about polling stubs its own).
 */
export const SETTLED_RENDITION: StubReply = {
  status: 200,
  body: {
    state: 'done',
    job_id: null,
    reason: null,
    attempts: 1,
    pdf: false,
    text: false,
    thumbnail: false,
    page_count: null,
    recognized: false,
  },
};

/** What protects an item, which the side panel asks administrators about. */
const PROTECTION_ROUTE = 'GET /api/rest/private/records/protection';

/**
 * What an unstubbed protection route answers: nothing protects the item (a test about the side
 * panel's retention and hold lines stubs its own).
 */
export function unprotected(call: FetchCall): StubReply {
  const query = new URLSearchParams(call.url.split('?')[1] ?? '');
  return {
    status: 200,
    body: {
      type: query.get('type') ?? 'file',
      id: query.get('id') ?? '',
      name: '',
      schedules: [],
      retained_until: null,
      retention_pending: false,
      holds: [],
      refusal: null,
    },
  };
}

/**
 * Stubs fetch with a route table keyed by "METHOD /path" (the query string is ignored); an
 * unknown route answers 404, except a file's rendition ({@link SETTLED_RENDITION}) and an item's
 * protection ({@link unprotected}).
 */
export function stubRoutes(routes: StubRoutes) {
  return stubFetch(async (call) => {
    const path = call.url.split('?')[0];
    const key = `${call.method} ${path}`;
    const route = routes[key];
    if (route === undefined && RENDITION_ROUTE.test(key)) return SETTLED_RENDITION;
    if (route === undefined && key === PROTECTION_ROUTE) return unprotected(call);
    if (route === undefined)
      return { status: 404, body: { message: 'Not found.', code: 'not_found' } };
    return typeof route === 'function' ? route(call) : route;
  });
}

/** Calls of the stub to "METHOD /path" (query ignored). */
export function callsTo(calls: readonly FetchCall[], key: string): FetchCall[] {
  return calls.filter((call) => `${call.method} ${call.url.split('?')[0]}` === key);
}
