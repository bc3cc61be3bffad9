/**
 * Calls started before the app first renders (the first rows of a deep-linked folder
 * under 1 s). The entry point starts the GETs the page of the address will make, beside the
 * session request, instead of after the shell has rendered; the API function that makes the same
 * call later takes the reply in flight instead of asking again.
 *
 * A warm reply is taken at most once, only within {@link PREFETCH_TTL_MS} of its start, and never
 * turns into an error: when the early call failed (no session yet, the network) the taker makes
 * its own call, with the usual error handling. Replies live in this module, never in the store.
 */
import { buildUrl, get, type Query } from './client';

/** Milliseconds a warm reply may be taken after its call started. */
export const PREFETCH_TTL_MS = 10_000;

interface WarmCall {
  startedAt: number;
  reply: Promise<unknown>;
}

const warm = new Map<string, WarmCall>();

/**
 * Starts `GET path?query` now (a 401 is not reported as a session end: the session may not be
 * known yet) and keeps its reply for {@link takePrefetched}.
 */
export function prefetchGet(path: string, query?: Query): void {
  const reply = get<unknown>(path, { query, reportUnauthorized: false });
  // The failure is handled by the taker's own call; nobody may be waiting for this one.
  reply.catch(() => undefined);
  warm.set(buildUrl(path, query), { startedAt: Date.now(), reply });
}

/**
 * The reply of a prefetched `GET path?query`, or a fresh call when there is none (or it is too
 * old, or it failed). Each warm reply is used once.
 * @param reportUnauthorized whether the fresh call reports a 401 as a session end (default true)
 * @throws ApiError as {@link get} does, from the fresh call
 */
export function getWarm<T>(path: string, query?: Query, reportUnauthorized = true): Promise<T> {
  const key = buildUrl(path, query);
  const call = warm.get(key);
  warm.delete(key);
  const fresh = () => get<T>(path, { query, reportUnauthorized });
  if (!call || Date.now() - call.startedAt > PREFETCH_TTL_MS) return fresh();
  return (call.reply as Promise<T>).catch(fresh);
}

/** Forgets every warm reply: the session changed (sign-in, sign-out, firm switch), or a test. */
export function clearPrefetched(): void {
  warm.clear();
}
