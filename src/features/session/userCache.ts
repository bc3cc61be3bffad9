/**
 * Cached user data (SPEC section 3: "stored locally under one key"): everything the client
 * keeps about the signed-in user between page loads lives in ONE localStorage entry,
 * {@link USER_CACHE_KEY}, and is removed at sign-out, on a session end and when another user signs
 * in. It holds who the user is (no secrets: the session itself is an HttpOnly cookie) and the
 * per-user preferences features save with {@link setCachedPreference}. Storage failures (private
 * mode, quota) are ignored: the cache is a convenience.
 */
import { FOLDER_SORT_PREFERENCE } from '@common/sort';
import type { CurrentUserDto } from '@common/session';

/** The one localStorage key of cached user data. */
export const USER_CACHE_KEY = 'dossier.user';

/** A JSON value a preference may hold. */
export type PreferenceValue =
  string | number | boolean | null | PreferenceValue[] | { [key: string]: PreferenceValue };

/** The cached user data. */
export interface CachedUser {
  userId: string;
  username: string;
  firstName: string;
  lastName: string;
  currentDatabaseId: string;
  /** The user's role in the current firm ('guest' for a guest); absent in older entries. */
  role?: string;
  /** Per-user preferences of the features, by name. */
  preferences: Record<string, PreferenceValue>;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/**
 * Whether this browser can keep the cached user between page loads (localStorage exists and takes
 * a write). Where it cannot (storage disabled, some private modes), a missing cached user says
 * nothing about the session, so the client must ask the server.
 */
export function canCacheUser(): boolean {
  const store = storage();
  if (!store) return false;
  try {
    const probe = `${USER_CACHE_KEY}.probe`;
    store.setItem(probe, '1');
    store.removeItem(probe);
    return true;
  } catch {
    return false;
  }
}

/** The cached user data, or null when there is none (or it is unreadable). */
export function readCachedUser(): CachedUser | null {
  try {
    const text = storage()?.getItem(USER_CACHE_KEY);
    if (!text) return null;
    const value = JSON.parse(text) as Partial<CachedUser> | null;
    if (!value || typeof value.userId !== 'string') return null;
    return { ...(value as CachedUser), preferences: value.preferences ?? {} };
  } catch {
    return null;
  }
}

function write(value: CachedUser): void {
  try {
    storage()?.setItem(USER_CACHE_KEY, JSON.stringify(value));
  } catch {
    // Storage full or disabled: nothing is cached.
  }
}

/**
 * Caches the signed-in user; their preferences are kept when the same user is cached again and
 * dropped when another user signs in.
 */
export function cacheUser(user: CurrentUserDto): void {
  const previous = readCachedUser();
  write({
    userId: user.userId,
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    currentDatabaseId: user.currentDatabaseId,
    role: user.databases.find((database) => database.id === user.currentDatabaseId)?.role,
    preferences: {
      ...(previous?.userId === user.userId ? previous.preferences : {}),
      // The server's remembered folder sort, so the next page load prefetches in it.
      ...(user.preferences
        ? { [FOLDER_SORT_PREFERENCE]: { ...user.preferences.folder_sort } }
        : {}),
    },
  });
}

/** A preference of the cached user, or undefined. */
export function getCachedPreference(name: string): PreferenceValue | undefined {
  return readCachedUser()?.preferences[name];
}

/** Saves a preference of the cached user (nothing happens when no user is cached). */
export function setCachedPreference(name: string, value: PreferenceValue): void {
  const cached = readCachedUser();
  if (!cached) return;
  write({ ...cached, preferences: { ...cached.preferences, [name]: value } });
}

/** Removes the cached user data (sign-out, session end). */
export function clearCachedUser(): void {
  try {
    storage()?.removeItem(USER_CACHE_KEY);
  } catch {
    // Nothing to clear.
  }
}
