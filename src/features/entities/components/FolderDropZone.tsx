/** The folder view as a drop zone for files (SPEC section 2: "Drag-and-drop upload of files"). */
import { CloudUploadOutlined } from '@ant-design/icons';
import { useRef, useState, type DragEvent, type ReactNode } from 'react';
import { pickedFromDataTransfer } from '@src/features/uploads/pickedFiles';
import { useAddFiles } from '@src/features/uploads/useAddFiles';

/** Props of {@link FolderDropZone}. */
export interface FolderDropZoneProps {
  folderId: string;
  /** Name shown in the drop hint. */
  folderName: string;
  /** Refuses drops (e.g. the folder could not be opened). */
  disabled?: boolean;
  children: ReactNode;
}

function carriesFiles(event: DragEvent): boolean {
  const types = event.dataTransfer?.types as readonly string[] | undefined;
  return !types || types.length === 0 || Array.from(types).includes('Files');
}

/**
 * Wraps the folder view: while files are dragged over it, it is highlighted with a hint; on drop
 * the files (directories refused by the checks) are added to the upload.
 */
export function FolderDropZone({
  folderId,
  folderName,
  disabled = false,
  children,
}: FolderDropZoneProps) {
  const addFiles = useAddFiles();
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);

  const onDragEnter = (event: DragEvent<HTMLDivElement>) => {
    if (disabled || !carriesFiles(event)) return;
    event.preventDefault();
    depth.current += 1;
    setDragging(true);
  };
  const onDragOver = (event: DragEvent<HTMLDivElement>) => {
    if (disabled || !carriesFiles(event)) return;
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    if (!dragging) setDragging(true);
  };
  const onDragLeave = () => {
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setDragging(false);
  };
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    depth.current = 0;
    setDragging(false);
    if (disabled || !event.dataTransfer) return;
    addFiles(pickedFromDataTransfer(event.dataTransfer), folderId);
  };

  return (
    <div
      className={dragging ? 'folder-drop-zone dragging' : 'folder-drop-zone'}
      data-testid="folder-drop-zone"
      onDragEnter={onDragEnter}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
    >
      {children}
      {dragging ? (
        <div className="drop-hint" aria-hidden>
          <CloudUploadOutlined />
          <span>Drop files to upload to {folderName}</span>
        </div>
      ) : null}
    </div>
  );
}
