/**
 * The move/copy folder picker (FolderPickerDialog.tsx) as its own chunk (antd's Tree), loaded
 * when organise/moveDialogOpened or organise/copyDialogOpened first opens it; mounted only
 * while open, as the dialog itself is.
 */
import { Suspense } from 'react';
import { lazyNamed } from '@src/app/lazyNamed';
import { useAppSelector } from '@src/store/hooks';
import { selectPickerDialog } from '../organiseSelectors';

const FolderPickerDialog = lazyNamed(() => import('./FolderPickerDialog'), 'FolderPickerDialog');

/** The picker while a move or copy asks for a folder. */
export function FolderPickerDialogSlot() {
  const open = useAppSelector(selectPickerDialog).kind !== null;
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <FolderPickerDialog />
    </Suspense>
  );
}
