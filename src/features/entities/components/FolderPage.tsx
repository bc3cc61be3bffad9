/** The Home page: /home (the root folder) and /home/folders/:folderId (deep links). */
import { Button, Result } from 'antd';
import { useEffect } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { ROOT_FOLDER_ID } from '@common/constants';
import type { FolderSortKey, SortOrder } from '@common/sort';
import { PageTitle } from '@src/components/PageTitle';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { FolderTreePane } from '@src/features/folderTree/components/FolderTreePane';
import { BulkToolbar } from '@src/features/organise/components/BulkToolbar';
import { selectCurrentDatabaseId } from '@src/features/session/sessionSelectors';
import { selectCurrentFolder, selectFolderDetails } from '../entitiesSelectors';
import { entitiesActions } from '../entitiesSlice';
import { folderSortFromSearch } from '../entityOrder';
import { EntityList } from './EntityList';
import { FolderBreadcrumbs } from './FolderBreadcrumbs';
import { FolderDropZone } from './FolderDropZone';
import { CreateFolderDialogSlot, EntityHistoryDrawerSlot } from './folderPageParts';
import { FolderToolbar } from './FolderToolbar';
import './entities.css';

/** Opens the folder of the route (again when the firm database changes) and shows it. */
export function FolderPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { folderId = ROOT_FOLDER_ID } = useParams();
  const databaseId = useAppSelector(selectCurrentDatabaseId);
  const folder = useAppSelector(selectCurrentFolder);
  const details = useAppSelector(selectFolderDetails);

  // The address's sort (`?sort=modified&order=desc`) survives a reload; without one the list
  // takes the user's remembered sort. A header click changes the address, which opens it again.
  const [search] = useSearchParams();
  const addressSort = folderSortFromSearch(search);
  const sortKey = addressSort ? `${addressSort.sort}:${addressSort.order}` : '';

  useEffect(() => {
    const [sort, order] = sortKey.split(':') as [FolderSortKey, SortOrder];
    dispatch(entitiesActions.folderOpened({ folderId, sort: sortKey ? { sort, order } : null }));
  }, [dispatch, folderId, databaseId, sortKey]);

  const failed = details.status === 'failed';
  const title =
    folderId === ROOT_FOLDER_ID
      ? 'Home'
      : folder.name || (details.status === 'loading' ? 'Loading…' : 'Folder');

  return (
    <FolderDropZone folderId={folderId} folderName={title} disabled={failed}>
      <FolderTreePane folderId={folderId} />
      <div className="page folder-page">
        <FolderBreadcrumbs />
        <PageTitle extra={failed ? null : <FolderToolbar folderId={folderId} />}>{title}</PageTitle>
        {failed ? (
          <Result
            status="warning"
            title="This folder could not be opened."
            subTitle={details.error}
            extra={
              <Button type="primary" onClick={() => void navigate('/home')}>
                Go to Home folder
              </Button>
            }
          />
        ) : (
          <>
            <BulkToolbar />
            <EntityList />
          </>
        )}
        <CreateFolderDialogSlot />
        <EntityHistoryDrawerSlot />
      </div>
    </FolderDropZone>
  );
}
