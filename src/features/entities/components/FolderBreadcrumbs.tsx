/** The breadcrumbs of the folder view: the home button, then the folder chain. */
import { HomeOutlined } from '@ant-design/icons';
import { Breadcrumb } from 'antd';
import { Link } from 'react-router';
import { useAppSelector } from '../../../store/hooks';
import { selectBreadcrumbs, selectCurrentFolder, selectFolderDetails } from '../entitiesSelectors';

/** The route of a folder. */
export function folderRoute(folderId: string): string {
  return folderId ? `/home/folders/${encodeURIComponent(folderId)}` : '/home';
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
        <Link to="/home" aria-label="Home folder" aria-current={folder.id ? undefined : 'page'}>
          <HomeOutlined aria-hidden />
        </Link>
      ),
    },
    ...chain.map((crumb, index) => ({
      key: crumb.id,
      title:
        index === chain.length - 1 ? (
          <span aria-current="page">{crumb.name}</span>
        ) : (
          <Link to={folderRoute(crumb.id)}>{crumb.name}</Link>
        ),
    })),
  ];

  return <Breadcrumb aria-label="Folder path" className="folder-breadcrumbs" items={items} />;
}
