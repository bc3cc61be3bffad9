/**
 * The signed-in user's preferences, kept on the server so they follow the user to any browser:
 * today the folder view's sort (column and direction). Personal: every signed-in user of a firm
 * (read-only members included) reads and sets their own; they are the same in every firm.
 */
import {
  DEFAULT_FOLDER_SORT,
  FOLDER_SORT_PREFERENCE,
  parseFolderSort,
  type FolderSort,
  type PreferencesDto,
} from '@common/sort';
import { badRequest } from '../errors';
import { isoAt } from '../ids';
import { findPreference, upsertPreference } from '../repositories/preferences';
import type { RequestContext, Services } from './context';

/** A stored folder sort, or the default when none is stored (or it is no longer valid). */
function storedFolderSort(text: string | undefined): FolderSort {
  if (text === undefined) return DEFAULT_FOLDER_SORT;
  try {
    const value = JSON.parse(text) as Partial<FolderSort> | null;
    const parsed = parseFolderSort(value?.sort, value?.order);
    return parsed.ok ? parsed.value : DEFAULT_FOLDER_SORT;
  } catch {
    return DEFAULT_FOLDER_SORT;
  }
}

/** A user's preferences, defaults for those never set (also part of the current-user answer). */
export async function preferencesOf(
  services: Pick<Services, 'db'>,
  userId: string,
): Promise<PreferencesDto> {
  const text = await findPreference(services.db, userId, FOLDER_SORT_PREFERENCE);
  return { folder_sort: storedFolderSort(text) };
}

/** GET preferences: the session user's preferences, defaults for those never set. */
export function getPreferences(services: Services, ctx: RequestContext): Promise<PreferencesDto> {
  return preferencesOf(services, ctx.userId);
}

/**
 * PUT preferences/folder_sort: remembers how the user sorts the folder view.
 * @returns the preferences after the change
 * @throws AppError 400 invalid_sort (MESSAGES.invalidSort / invalidOrder)
 */
export async function setFolderSortPreference(
  services: Services,
  ctx: RequestContext,
  input: { sort?: string; order?: string },
): Promise<PreferencesDto> {
  const parsed = parseFolderSort(input.sort, input.order);
  if (!parsed.ok) throw badRequest(parsed.message, 'invalid_sort');
  await upsertPreference(services.db, {
    user_id: ctx.userId,
    name: FOLDER_SORT_PREFERENCE,
    value: JSON.stringify(parsed.value),
    updated_at: isoAt(services.clock),
  });
  return { folder_sort: parsed.value };
}
