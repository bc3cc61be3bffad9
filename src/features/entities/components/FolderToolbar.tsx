/**
 * The folder view's toolbar: "New folder", "Upload files", "Request documents" (a folder other
 * than the root, members and administrators only), "View as of…" (the folder's past, Replay) and
 * the list/grid layout switch.
 */
import { FolderAddOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useRef, type ChangeEvent } from 'react';
import { ROOT_FOLDER_ID } from '@common/constants';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { RequestDocumentsButton } from '@src/features/documentRequests/components/RequestDocumentsButton';
import { ListLayoutToggle } from '@src/features/imaging/components/ListLayoutToggle';
import { ViewAsOfButton } from '@src/features/replay/components/ViewAsOfButton';
import { pickedFromFileList } from '@src/features/uploads/pickedFiles';
import { useAddFiles } from '@src/features/uploads/useAddFiles';
import { selectCurrentFolder } from '../entitiesSelectors';
import { entitiesActions } from '../entitiesSlice';

/** Props of {@link FolderToolbar}. */
export interface FolderToolbarProps {
  /** The folder new folders and uploads go to. */
  folderId: string;
}

/** Buttons to create a folder and to choose files to upload into the open folder. */
export function FolderToolbar({ folderId }: FolderToolbarProps) {
  const dispatch = useAppDispatch();
  const addFiles = useAddFiles();
  const input = useRef<HTMLInputElement>(null);
  const folder = useAppSelector(selectCurrentFolder);

  const onFilesChosen = (event: ChangeEvent<HTMLInputElement>) => {
    addFiles(pickedFromFileList(event.target.files), folderId);
    event.target.value = '';
  };

  return (
    <Space className="folder-toolbar" wrap>
      <Button
        icon={<FolderAddOutlined aria-hidden />}
        onClick={() => dispatch(entitiesActions.createFolderDialogOpened())}
      >
        New folder
      </Button>
      <Button
        type="primary"
        icon={<UploadOutlined aria-hidden />}
        onClick={() => input.current?.click()}
      >
        Upload files
      </Button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        aria-label="Upload files"
        tabIndex={-1}
        onChange={onFilesChosen}
      />
      {folderId === ROOT_FOLDER_ID ? null : (
        <RequestDocumentsButton
          folderId={folderId}
          folderName={folder.id === folderId ? folder.name : ''}
        />
      )}
      <ViewAsOfButton folderId={folderId} />
      <ListLayoutToggle />
    </Space>
  );
}
