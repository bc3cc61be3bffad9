/**
 * The tree of the folder tree pane (FolderTreePane.tsx): an antd Tree of the firm's folders, each
 * folder's subfolders read when its node is expanded, the open folder selected and its ancestors
 * expanded; choosing a node opens its folder, and rows dragged onto a node move into it. Its own
 * chunk: antd's Tree is not needed for the first rows of the folder page.
 */
import { CaretDownFilled, FolderFilled, HomeOutlined, LoadingOutlined } from '@ant-design/icons';
import { Alert, Button, Tree, type GetRef } from 'antd';
import type { DataNode, EventDataNode } from 'antd/es/tree';
import {
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type Key,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import { useStore } from 'react-redux';
import { useNavigate } from 'react-router';
import { ROOT_FOLDER_ID } from '@common/constants';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import type { AppStore } from '@src/store/store';
import { storeSettles } from '@src/store/storeSettles';
import { folderRoute } from '@src/features/entities/components/FolderBreadcrumbs';
import { selectCanOrganise } from '@src/features/organise/organiseSelectors';
import type { PickerLevel } from '@src/features/organise/organiseSlice';
import { useFolderDrop } from '@src/features/organise/useFolderDrop';
import { selectTreeExpandedIds, selectTreeLevels } from '../folderTreeSelectors';
import { folderTreeActions } from '../folderTreeSlice';

/** The tree key of the root (antd keys must not be empty). */
const ROOT_KEY = 'root';
/** The root's name in the tree. */
const ROOT_NAME = 'Home';
/** The tree's height before the pane has been measured (and where it cannot be), in px. */
const DEFAULT_TREE_HEIGHT = 480;

const toKey = (folderId: string) => (folderId === ROOT_FOLDER_ID ? ROOT_KEY : folderId);
const fromKey = (key: Key) => (key === ROOT_KEY ? ROOT_FOLDER_ID : String(key));

const useAppStore = useStore.withTypes<AppStore>();

/** Resolves once the tree level of `parentId` is no longer loading. */
function levelSettled(store: AppStore, parentId: string): Promise<void> {
  return storeSettles(store, (state) => state.folderTree.levels[parentId]?.status !== 'loading');
}

/** A node of the tree with the folder it stands for. */
interface FolderNode extends DataNode {
  folderId: string;
  name: string;
  children?: FolderNode[];
}

/** A node's title: the folder's name, a drop target for dragged rows (not the open folder). */
function NodeTitle({ node, current }: { node: FolderNode; current: boolean }) {
  const canOrganise = useAppSelector(selectCanOrganise);
  const drop = useFolderDrop(node.folderId, node.name, canOrganise && !current);
  return (
    <span
      className={drop.over ? 'folder-tree-node folder-tree-node-drop' : 'folder-tree-node'}
      data-drop-folder-id={node.folderId}
      {...drop.handlers}
    >
      {node.name}
    </span>
  );
}

/** The tree's height follows its box (the pane's height less its header). */
function useBoxHeight(box: RefObject<HTMLDivElement | null>): number {
  const [height, setHeight] = useState(DEFAULT_TREE_HEIGHT);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      const measured = Math.floor(element.getBoundingClientRect().height);
      if (measured > 0) setHeight(measured);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [box]);
  return height;
}

/** The tree of the open pane; `folderId` is the open folder ('' for the root). */
export function FolderTree({ folderId, treeId }: { folderId: string; treeId: string }) {
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const navigate = useNavigate();
  const levels = useAppSelector(selectTreeLevels);
  const expandedIds = useAppSelector(selectTreeExpandedIds);
  const box = useRef<HTMLDivElement>(null);
  const tree = useRef<GetRef<typeof Tree>>(null);
  const active = useRef<Key | null>(null);
  const scrolledTo = useRef<string | null>(null);
  const height = useBoxHeight(box);
  const currentKey = toKey(folderId);

  const treeData = useMemo((): FolderNode[] => {
    const build = (parentId: string): FolderNode[] | undefined => {
      const level = levels[parentId];
      if (level?.status !== 'succeeded') return undefined;
      return level.folders.map((folder) => ({
        key: folder.id,
        folderId: folder.id,
        name: folder.name,
        title: folder.name,
        icon: <FolderFilled aria-hidden />,
        children: build(folder.id),
      }));
    };
    return [
      {
        key: ROOT_KEY,
        folderId: ROOT_FOLDER_ID,
        name: ROOT_NAME,
        title: ROOT_NAME,
        icon: <HomeOutlined aria-hidden />,
        children: build(ROOT_FOLDER_ID),
      },
    ];
  }, [levels]);

  // Folders shown in the tree (the root and every loaded subfolder).
  const shown = useMemo(() => {
    const ids = new Set<string>([ROOT_FOLDER_ID]);
    for (const level of Object.values(levels)) {
      if (level.status === 'succeeded') for (const folder of level.folders) ids.add(folder.id);
    }
    return ids;
  }, [levels]);

  // The expanded folders that are shown are read at once (the open folder's ancestors after a
  // reload), not one level after another as the tree would.
  useEffect(() => {
    for (const id of expandedIds) {
      if (shown.has(id) && !levels[id]) {
        dispatch(folderTreeActions.levelRequested({ parentId: id }));
      }
    }
  }, [dispatch, expandedIds, shown, levels]);

  // The open folder is scrolled into view once it is in the tree.
  useEffect(() => {
    if (scrolledTo.current === folderId || !shown.has(folderId)) return;
    scrolledTo.current = folderId;
    tree.current?.scrollTo({ key: currentKey, align: 'auto' });
  }, [folderId, currentKey, shown]);

  const loadData = (node: EventDataNode<FolderNode>) => {
    const parentId = fromKey(node.key);
    dispatch(folderTreeActions.levelRequested({ parentId }));
    return levelSettled(store, parentId);
  };

  const open = (key: Key) => {
    const id = fromKey(key);
    if (id !== folderId) void navigate(folderRoute(id));
  };

  // Enter opens the active folder (the tree's default action), as a click does.
  const onKeyDownCapture = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Enter' || active.current === null) return;
    event.preventDefault();
    event.stopPropagation();
    open(active.current);
  };

  const loadedKeys = Object.entries(levels)
    .filter(([, level]) => level.status === 'succeeded' || level.status === 'failed')
    .map(([parentId]) => toKey(parentId));
  const failed = Object.entries(levels).filter(
    (entry): entry is [string, PickerLevel] => entry[1].status === 'failed',
  );

  return (
    <>
      {failed.length > 0 ? (
        <Alert
          className="folder-tree-error"
          type="error"
          showIcon
          title={failed[0]![1].error}
          action={
            <Button
              size="small"
              onClick={() => {
                for (const [parentId] of failed) {
                  dispatch(folderTreeActions.levelRequested({ parentId, refresh: true }));
                }
              }}
            >
              Try again
            </Button>
          }
        />
      ) : null}
      <div className="folder-tree-body" ref={box} id={treeId} onKeyDownCapture={onKeyDownCapture}>
        <Tree<FolderNode>
          ref={tree}
          className="folder-tree"
          showIcon
          blockNode
          // Icons are decoration: a node's name is its folder's name alone.
          switcherIcon={<CaretDownFilled aria-hidden />}
          switcherLoadingIcon={<LoadingOutlined aria-hidden />}
          treeData={treeData}
          loadData={loadData}
          loadedKeys={loadedKeys}
          expandedKeys={expandedIds.map(toKey)}
          onExpand={(keys) =>
            dispatch(folderTreeActions.expandedChanged({ ids: keys.map(fromKey) }))
          }
          selectedKeys={[currentKey]}
          onSelect={(_keys, info) => open(info.node.key)}
          onActiveChange={(key) => {
            active.current = key;
          }}
          titleRender={(node) => <NodeTitle node={node} current={node.key === currentKey} />}
          height={height}
          aria-label="Folders"
        />
      </div>
    </>
  );
}
