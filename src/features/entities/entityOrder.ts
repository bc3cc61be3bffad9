/** The order of a folder's contents, as the server sends it: folders first, then files, by name. */
import { nameKey } from '../../../common/names';
import type { EntityDto } from '../../../common/types';

/**
 * Compares two items in list order: folders before files, then by case-insensitive name, then by
 * exact name and id so that the order is total.
 * @returns negative when `a` comes first, positive when `b` does, 0 only for the same id
 */
export function compareEntities(a: EntityDto, b: EntityDto): number {
  if (a.type !== b.type) return a.type === 'folder' ? -1 : 1;
  const keyA = nameKey(a.name);
  const keyB = nameKey(b.name);
  if (keyA !== keyB) return keyA < keyB ? -1 : 1;
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.id === b.id ? 0 : a.id < b.id ? -1 : 1;
}
