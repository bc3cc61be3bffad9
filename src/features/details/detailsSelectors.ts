/** Selectors of the details slice (the entity side panel). */
import { createSelector } from '@reduxjs/toolkit';
import { FILE_CATEGORIES, fileCategory, fileKind, type FileCategory } from '@common/files';
import type { EntityDto } from '@common/entities';
import type { TypeStatDto } from '@common/stats';
import type { RootState } from '@src/store/rootReducer';

/** The whole details slice. */
export const selectDetails = (state: RootState) => state.details;
/** The item the panel shows, or null when it is closed. */
export const selectDetailsTarget = (state: RootState) => state.details.target;
/** The loaded item. */
const selectDetailsEntity = (state: RootState) => state.details.entity;
/** The firm's statistics. */
export const selectFirmStats = (state: RootState) => state.details.firm;

/** The 8 categories in the spec's order (SPEC section 3): Video, Image, …, Other. */
export const CATEGORY_ORDER: readonly FileCategory[] = [
  ...(Object.keys(FILE_CATEGORIES) as FileCategory[]),
  'Other',
];

/**
 * The by-type rows in the spec's order with every category present (zeros for those the server
 * left out), so the breakdown always shows all 8.
 */
export function completeByType(byType: readonly TypeStatDto[]): TypeStatDto[] {
  const found = new Map(byType.map((stat) => [stat.category, stat]));
  return CATEGORY_ORDER.map((category) => found.get(category) ?? { category, count: 0, size: 0 });
}

/**
 * The type line of an item: "Folder", or a file's category and extension ("PDF (.pdf)",
 * "Other (.zip)", "Other" without an extension).
 */
export function typeText(entity: EntityDto): string {
  if (entity.type === 'folder') return 'Folder';
  const category = fileCategory(entity.extension);
  return entity.extension ? `${category} (.${entity.extension})` : category;
}

/** The icon kind of the loaded item. */
export const selectDetailsKind = createSelector([selectDetailsEntity], (entity) =>
  entity ? fileKind(entity.type === 'file' ? entity : { type: 'folder' }) : 'folder',
);
