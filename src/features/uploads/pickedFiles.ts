/**
 * Turns what the browser gives (a file input's FileList, a drop's DataTransfer) into picked
 * files, telling directories apart (SPEC section 5: "Drag-and-drop accepts only items that are
 * not directories").
 */

/** One item the user chose or dropped. */
export interface PickedFile {
  file: File;
  /** True when the item is a directory (refused by the checks). */
  isDirectory: boolean;
}

/** A DataTransferItem as far as this module uses it (webkitGetAsEntry is not everywhere). */
interface DropItem {
  kind: string;
  getAsFile(): File | null;
  webkitGetAsEntry?: () => { isDirectory: boolean } | null;
}

/**
 * Whether a File from a drop without entry information looks like a directory: browsers give
 * directories as entries of size 0 and no type.
 */
function looksLikeDirectory(file: File): boolean {
  return file.size === 0 && file.type === '';
}

/**
 * Reads the dropped items. Must be called during the drop event (the browser empties the data
 * transfer afterwards). Uses `webkitGetAsEntry()` to recognise directories, and falls back to
 * {@link looksLikeDirectory} when it is unavailable.
 */
export function pickedFromDataTransfer(dataTransfer: DataTransfer): PickedFile[] {
  const items = dataTransfer.items as DataTransferItemList | undefined;
  if (items && items.length > 0) {
    const picked: PickedFile[] = [];
    for (let i = 0; i < items.length; i += 1) {
      const item = items[i] as DropItem | undefined;
      if (!item || item.kind !== 'file') continue;
      const file = item.getAsFile();
      if (!file) continue;
      const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
      picked.push({ file, isDirectory: entry ? entry.isDirectory : looksLikeDirectory(file) });
    }
    return picked;
  }
  return Array.from(dataTransfer.files ?? []).map((file) => ({
    file,
    isDirectory: looksLikeDirectory(file),
  }));
}

/** Reads the files of a file input (a file input never gives directories here). */
export function pickedFromFileList(files: FileList | readonly File[] | null): PickedFile[] {
  return Array.from(files ?? []).map((file) => ({ file, isDirectory: false }));
}
