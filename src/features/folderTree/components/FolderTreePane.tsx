/**
 * The folder tree pane (flag folderTreeView): a collapsible antd Tree of the firm's folders beside
 * the folder list on /home and /home/folders/:id, in a desktop window (TREE_PANE_QUERY, 1024px and
 * up; narrower ones have the breadcrumbs). Each folder's subfolders are read when its node is expanded (the folder
 * tree slice; only folders the API returns to this user); the open folder is selected and its
 * ancestors are expanded. Choosing a node (click, Space, or Enter) opens its folder; the tree
 * follows the WAI-ARIA tree pattern through antd (Up/Down, Left/Right, Home/End). Rows dragged from
 * the list onto a node move into that folder (useFolderDrop). Whether the pane is collapsed is a
 * preference of the cached user (userCache.ts), kept between page loads.
 */
import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Button, Spin } from 'antd';
import { Suspense, useId, useState } from 'react';
import { lazyShellPart } from '@src/app/lazyNamed';
import { TREE_PANE_QUERY, useMediaQuery } from '@src/components/useMediaQuery';
import { useAppSelector } from '@src/store/hooks';
import { selectFeatureFlag } from '@src/features/flags/flagsSelectors';
import { getCachedPreference, setCachedPreference } from '@src/features/session/userCache';
import './folderTree.css';

/** The cached user's preference that keeps the pane collapsed (true) between page loads. */
export const TREE_COLLAPSED_PREFERENCE = 'folderTreeCollapsed';

/** The tree itself, its own chunk (antd's Tree), loaded once the pane is open. */
const FolderTree = lazyShellPart(() => import('./FolderTree'), 'FolderTree');

/** The pane when open or collapsed. */
function Pane({ folderId }: { folderId: string }) {
  const treeId = useId();
  const [collapsed, setCollapsed] = useState(
    () => getCachedPreference(TREE_COLLAPSED_PREFERENCE) === true,
  );
  const toggle = () => {
    setCollapsed(!collapsed);
    setCachedPreference(TREE_COLLAPSED_PREFERENCE, !collapsed);
  };

  if (collapsed) {
    return (
      <nav className="folder-tree-pane folder-tree-pane-collapsed" aria-label="Folder tree">
        <Button
          type="text"
          icon={<MenuUnfoldOutlined aria-hidden />}
          aria-label="Show folder tree"
          aria-expanded={false}
          title="Show folder tree"
          onClick={toggle}
        />
      </nav>
    );
  }
  return (
    <nav className="folder-tree-pane" aria-label="Folder tree" data-testid="folder-tree-pane">
      <div className="folder-tree-head">
        <span className="folder-tree-title">Folders</span>
        <Button
          type="text"
          size="small"
          icon={<MenuFoldOutlined aria-hidden />}
          aria-label="Hide folder tree"
          aria-expanded
          aria-controls={treeId}
          title="Hide folder tree"
          onClick={toggle}
        />
      </div>
      <Suspense
        fallback={
          <div className="folder-tree-body" id={treeId}>
            <Spin size="small" />
          </div>
        }
      >
        <FolderTree folderId={folderId} treeId={treeId} />
      </Suspense>
    </nav>
  );
}

/**
 * The folder tree pane of the folder view, or nothing when the folderTreeView flag is off or the
 * window is narrower than a desktop's.
 * @param folderId the open folder ('' for the root)
 */
export function FolderTreePane({ folderId }: { folderId: string }) {
  const enabled = useAppSelector((state) => selectFeatureFlag(state, 'folderTreeView'));
  const wide = useMediaQuery(TREE_PANE_QUERY);
  if (!enabled || !wide) return null;
  return <Pane folderId={folderId} />;
}
