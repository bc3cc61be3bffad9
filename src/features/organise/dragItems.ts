/**
 * Dragging rows of the folder page onto a folder row or a breadcrumb: the dragged
 * items travel in the drag's DataTransfer under their own type, so file drops (uploads) and row
 * drops never mix.
 */
import type { EntityRef } from '@common/entities';

/** The DataTransfer type that carries dragged rows (JSON of EntityRef[]). */
const DRAG_ITEMS_TYPE = 'application/x-dossier-items';

/** The ids being dragged in this page (a drop target may not be one of them); empty when idle. */
let draggedIds: ReadonlySet<string> = new Set();

/** Puts the dragged items into the drag's data and remembers their ids. */
export function startItemsDrag(
  transfer: DataTransfer,
  items: readonly (EntityRef & { name: string })[],
): void {
  const refs = items.map(({ id, type }) => ({ id, type }));
  transfer.setData(DRAG_ITEMS_TYPE, JSON.stringify(refs));
  transfer.setData('text/plain', items.map((item) => item.name).join('\n'));
  transfer.effectAllowed = 'move';
  draggedIds = new Set(refs.map((ref) => ref.id));
}

/** Forgets the dragged ids (the drag ended, dropped or not). */
export function endItemsDrag(): void {
  draggedIds = new Set();
}

/** Whether a drag carries rows (readable during dragover, unlike the data itself). */
export function carriesItems(transfer: DataTransfer | null | undefined): boolean {
  return !!transfer && Array.from(transfer.types ?? []).includes(DRAG_ITEMS_TYPE);
}

/** Whether `folderId` may receive the current drag (it is not one of the dragged rows). */
export function canDropOn(folderId: string): boolean {
  return !draggedIds.has(folderId);
}

/** The dragged items of a drop; [] when the drop carries none (or garbage). */
export function droppedItems(transfer: DataTransfer | null | undefined): EntityRef[] {
  if (!transfer) return [];
  try {
    const parsed = JSON.parse(transfer.getData(DRAG_ITEMS_TYPE)) as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (item): item is EntityRef =>
        typeof item === 'object' &&
        item !== null &&
        typeof (item as EntityRef).id === 'string' &&
        ((item as EntityRef).type === 'file' || (item as EntityRef).type === 'folder'),
    );
  } catch {
    return [];
  }
}
