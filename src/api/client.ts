/**
 * The one HTTP client of the web app (DESIGN.md section 5): JSON in and out, cookies included,
 * same origin. A non-ok reply is logged and thrown as an {@link ApiError} carrying the reply's
 * `message` (SPEC section 7). A 401 on a call that expects a session tells the subscribers of
 * {@link subscribeUnauthorized} (the session saga turns that into `session/expired`).
 */
import { MESSAGES } from '@common/messages';
import type { ApiErrorBody } from '@common/api';

/** Error thrown for every failed call: the HTTP status (0 when the server was not reached), the
 * server's error code and its user-facing message. */
export class ApiError extends Error {
  /** HTTP status of the reply; 0 when no reply arrived (network failure). */
  readonly status: number;
  /** The server's snake_case error code, or a client-side one ('network_error', 'http_error'). */
  readonly code: string;

  /** Creates an error with the reply's status, code and message. */
  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

/** HTTP methods the client uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Query parameters; undefined values are left out, '' is sent as an empty value. */
export type Query = Record<string, string | number | boolean | undefined>;

/** Options of one call. */
export interface RequestOptions {
  /** JSON body; omitted for GET. */
  body?: unknown;
  /** Query parameters appended to the path. */
  query?: Query;
  /**
   * Whether a 401 reply means "the session has ended" and is reported to the subscribers of
   * {@link subscribeUnauthorized}. True by default; false for the calls that are expected to
   * answer 401 without a session (current-user, authenticate).
   */
  reportUnauthorized?: boolean;
  /** Aborts the call. */
  signal?: AbortSignal;
}

type UnauthorizedListener = (path: string) => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/**
 * Registers a listener told about every 401 reply of a call that expects a session.
 * @returns a function that removes the listener
 */
export function subscribeUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => {
    unauthorizedListeners.delete(listener);
  };
}

/** Builds `path?query` with URL-encoded parameters. */
export function buildUrl(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

function isErrorBody(value: unknown): value is Partial<ApiErrorBody> {
  return typeof value === 'object' && value !== null && 'message' in value;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function networkMessage(): string {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return MESSAGES.noInternet;
  return 'The server could not be reached. Please try again.';
}

/**
 * Sends one request and parses the JSON reply.
 * @param method HTTP method
 * @param path absolute path on this origin, e.g. '/api/rest/entities'
 * @param options body, query and 401 handling
 * @returns the parsed JSON body (undefined for an empty reply)
 * @throws ApiError on a non-ok reply (with the reply's message) or a network failure
 */
export async function request<T>(
  method: HttpMethod,
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  const { body, query, reportUnauthorized = true, signal } = options;
  const url = buildUrl(path, query);
  const headers: Record<string, string> = { Accept: 'application/json' };
  const init: RequestInit = { method, credentials: 'include', headers };
  if (signal) init.signal = signal;
  if (body !== undefined && method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }

  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    const error = new ApiError(0, 'network_error', networkMessage());
    console.error(`${method} ${url} failed:`, cause);
    throw error;
  }

  const data = await readJson(response);
  if (!response.ok) {
    const message =
      isErrorBody(data) && typeof data.message === 'string' && data.message !== ''
        ? data.message
        : response.status >= 500
          ? MESSAGES.internalError
          : `The request failed (HTTP ${response.status}).`;
    const code = isErrorBody(data) && typeof data.code === 'string' ? data.code : 'http_error';
    const error = new ApiError(response.status, code, message);
    console.error(`${method} ${url} answered ${response.status}: ${message}`);
    if (response.status === 401 && reportUnauthorized) {
      for (const listener of [...unauthorizedListeners]) listener(path);
    }
    throw error;
  }
  return data as T;
}

/** GET `path` and parse the JSON reply. */
export function get<T>(path: string, options?: Omit<RequestOptions, 'body'>): Promise<T> {
  return request<T>('GET', path, options);
}

/** POST a JSON body to `path` and parse the JSON reply. */
export function post<T>(
  path: string,
  body?: unknown,
  options?: Omit<RequestOptions, 'body'>,
): Promise<T> {
  return request<T>('POST', path, { ...options, body: body ?? {} });
}

/** Prefix of the REST API (SPEC section 7: "REST means the prefix /api/rest"). */
export const REST = '/api/rest';
/** Prefix of the auth API. */
export const AUTH = '/api/auth';

/**
 * The message to show for any error caught from an API call: the ApiError's message, or a
 * generic text for unexpected errors.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error && error.message) return error.message;
  return MESSAGES.internalError;
}

/** A list's failure text: the spec's message, then the reason when the server gave one. */
export function listError(message: string, error: unknown): string {
  return error instanceof ApiError && error.status !== 0 && error.message
    ? `${message} ${error.message}`
    : message;
}
