/**
 * The breadcrumbs of the folder view: the home button, then the folder chain. Every crumb but the
 * open folder's takes dragged rows (they move into that folder).
 */
import { HomeOutlined } from '@ant-design/icons';
import { Breadcrumb } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ROOT_FOLDER_ID } from '@common/constants';
import { useFolderDrop } from '@src/features/organise/useFolderDrop';
import { useAppSelector } from '@src/store/hooks';
import { selectBreadcrumbs, selectCurrentFolder, selectFolderDetails } from '../entitiesSelectors';

/** The route of a folder. */
export function folderRoute(folderId: string): string {
  return folderId ? `/home/folders/${encodeURIComponent(folderId)}` : '/home';
}

/** A crumb that takes dropped rows (not the open folder's own). */
function DropCrumb({
  folderId,
  folderName,
  enabled,
  children,
}: {
  folderId: string;
  folderName: string;
  enabled: boolean;
  children: ReactNode;
}) {
  const drop = useFolderDrop(folderId, folderName, enabled);
  return (
    <span
      className={drop.over ? 'crumb-drop crumb-drop-over' : 'crumb-drop'}
      data-drop-folder-id={folderId}
      {...drop.handlers}
    >
      {children}
    </span>
  );
}

/**
 * The home button (a link to /home, SPEC section 2) followed by the chain from the top-level
 * folder down to the open one; the last crumb is the current page.
 */
export function FolderBreadcrumbs() {
  const crumbs = useAppSelector(selectBreadcrumbs);
  const folder = useAppSelector(selectCurrentFolder);
  const details = useAppSelector(selectFolderDetails);

  let chain = crumbs;
  if (crumbs.length === 0 && folder.id && details.status !== 'failed') {
    const name = folder.name || (details.status === 'loading' ? 'Loading…' : '');
    chain = [{ id: folder.id, name, type: 'breadcrumb' }];
  }

  const items = [
    {
      key: 'home',
      title: (
        <DropCrumb folderId={ROOT_FOLDER_ID} folderName="Home" enabled={folder.id !== ''}>
          <Link to="/home" aria-label="Home folder" aria-current={folder.id ? undefined : 'page'}>
            <HomeOutlined aria-hidden />
          </Link>
        </DropCrumb>
      ),
    },
    ...chain.map((crumb, index) => ({
      key: crumb.id,
      title:
        index === chain.length - 1 ? (
          <span aria-current="page">{crumb.name}</span>
        ) : (
          <DropCrumb folderId={crumb.id} folderName={crumb.name} enabled>
            <Link to={folderRoute(crumb.id)}>{crumb.name}</Link>
          </DropCrumb>
        ),
    })),
  ];

  return <Breadcrumb aria-label="Folder path" className="folder-breadcrumbs" items={items} />;
}
