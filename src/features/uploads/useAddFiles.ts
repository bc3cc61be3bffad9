/** The hook components use to hand picked or dropped files to the upload saga. */
import { useCallback } from 'react';
import { useAppDispatch } from '@src/store/hooks';
import type { PickedFile } from './pickedFiles';
import { uploadsActions } from './uploadsSlice';
import { stageFiles } from './stagedFiles';

/**
 * Returns a function that stages the files (they stay out of the store) and dispatches
 * `uploads/filesPicked` with the batch id and the target folder.
 */
export function useAddFiles(): (files: readonly PickedFile[], folderId: string) => void {
  const dispatch = useAppDispatch();
  return useCallback(
    (files, folderId) => {
      if (files.length === 0) return;
      const batchId = stageFiles(files);
      dispatch(uploadsActions.filesPicked({ batchId, folderId }));
    },
    [dispatch],
  );
}
