/**
 * Makes an element a drop target for dragged rows (a folder row, a breadcrumb): while rows are
 * dragged over it, it is highlighted; a drop asks to move them into the folder.
 */
import { useState, type DragEvent } from 'react';
import { useAppDispatch } from '@src/store/hooks';
import { canDropOn, carriesItems, droppedItems, endItemsDrag } from './dragItems';
import { organiseEvents } from './organiseEvents';

/** The handlers to spread on the target and whether rows are over it. */
export interface FolderDropTarget {
  over: boolean;
  handlers: {
    onDragEnter: (event: DragEvent<HTMLElement>) => void;
    onDragOver: (event: DragEvent<HTMLElement>) => void;
    onDragLeave: (event: DragEvent<HTMLElement>) => void;
    onDrop: (event: DragEvent<HTMLElement>) => void;
  };
}

/**
 * @param folderId the folder the rows move into ('' for the root)
 * @param folderName its name, for the success toast
 * @param enabled false for targets that take nothing (files, the open folder's own crumb)
 */
export function useFolderDrop(
  folderId: string,
  folderName: string,
  enabled = true,
): FolderDropTarget {
  const dispatch = useAppDispatch();
  const [over, setOver] = useState(false);
  const accepts = (event: DragEvent<HTMLElement>) =>
    enabled && carriesItems(event.dataTransfer) && canDropOn(folderId);

  return {
    over,
    handlers: {
      onDragEnter: (event) => {
        if (!accepts(event)) return;
        event.preventDefault();
        setOver(true);
      },
      onDragOver: (event) => {
        if (!accepts(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
        if (!over) setOver(true);
      },
      onDragLeave: (event) => {
        const next = event.relatedTarget as Node | null;
        if (next && event.currentTarget.contains(next)) return;
        setOver(false);
      },
      onDrop: (event) => {
        setOver(false);
        if (!enabled || !carriesItems(event.dataTransfer)) return;
        // Rows dropped here are not files: the folder's upload drop zone must not see them.
        event.preventDefault();
        event.stopPropagation();
        const items = droppedItems(event.dataTransfer).filter((item) => item.id !== folderId);
        endItemsDrag();
        if (items.length === 0) return;
        dispatch(organiseEvents.moveRequested({ items, folderId, folderName }));
      },
    },
  };
}
