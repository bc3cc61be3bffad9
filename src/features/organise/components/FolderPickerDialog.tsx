/**
 * The "Move to…" / "Copy to…" dialog: a folder picker, an antd Tree that
 * loads each folder's subfolders when it is expanded (GET /folders?parent_id) when the
 * folderTreeView flag is on, else a list of the subfolders of one folder at a time with
 * breadcrumbs. The folders being moved (or copied) cannot be chosen or opened: nothing moves into
 * itself. Choosing dispatches organise/moveRequested or organise/copyRequested.
 */
import { FolderFilled, HomeOutlined, RightOutlined } from '@ant-design/icons';
import { Alert, Breadcrumb, Button, Empty, Modal, Spin, Tree } from 'antd';
import type { DataNode, EventDataNode } from 'antd/es/tree';
import { useEffect, useMemo, useState, type Key } from 'react';
import { useStore } from 'react-redux';
import { ROOT_FOLDER_ID } from '@common/constants';
import { useReturnFocus } from '@src/components/useReturnFocus';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import type { AppStore } from '@src/store/store';
import { storeSettles } from '@src/store/storeSettles';
import { selectFeatureFlag } from '@src/features/flags/flagsSelectors';
import { organiseEvents } from '../organiseEvents';
import { selectPickerDialog, selectPickerLevels } from '../organiseSelectors';
import { organiseActions, type PickerFolder, type PickerLevel } from '../organiseSlice';

/** The tree key of the root (antd keys must not be empty). */
const ROOT_KEY = 'root';
/** The root as the picker names it. */
const PICKER_ROOT: PickerFolder = { id: ROOT_FOLDER_ID, name: 'Home' };

const fromKey = (key: Key) => (key === ROOT_KEY ? ROOT_FOLDER_ID : String(key));

const useAppStore = useStore.withTypes<AppStore>();

/** Resolves once the picker level of `parentId` is no longer loading (or the dialog closed). */
function levelSettled(store: AppStore, parentId: string): Promise<void> {
  return storeSettles(store, (state) => state.organise.picker[parentId]?.status !== 'loading');
}

/** Props of the two pickers. */
export interface PickerProps {
  levels: Record<string, PickerLevel>;
  /** Folders that cannot be chosen or opened. */
  excluded: ReadonlySet<string>;
  onChoose: (folder: PickerFolder | null) => void;
  /**
   * Asks for a folder's subfolders (list picker; a stable function). Default: the move/copy
   * dialog's organise/pickerLevelRequested. Another feature passes its own to keep its own levels.
   */
  onLevelNeeded?: (parentId: string) => void;
}

/** The tree picker (flag folderTreeView). */
function TreePicker({ levels, excluded, onChoose }: PickerProps) {
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const [expanded, setExpanded] = useState<Key[]>([ROOT_KEY]);
  const [selected, setSelected] = useState<Key[]>([]);

  const treeData = useMemo(() => {
    const build = (parentId: string): DataNode[] | undefined => {
      const level = levels[parentId];
      if (level?.status !== 'succeeded') return undefined;
      return level.folders.map((folder) => {
        const blocked = excluded.has(folder.id);
        return {
          key: folder.id,
          title: folder.name,
          icon: <FolderFilled aria-hidden />,
          disabled: blocked,
          isLeaf: blocked ? true : undefined,
          children: blocked ? undefined : build(folder.id),
        };
      });
    };
    return [
      {
        key: ROOT_KEY,
        title: PICKER_ROOT.name,
        icon: <HomeOutlined aria-hidden />,
        children: build(ROOT_FOLDER_ID),
      },
    ] satisfies DataNode[];
  }, [levels, excluded]);

  const loadData = (node: EventDataNode<DataNode>) => {
    const parentId = fromKey(node.key);
    dispatch(organiseActions.pickerLevelRequested({ parentId }));
    return levelSettled(store, parentId);
  };

  const failed = Object.values(levels).find((level) => level.status === 'failed');
  return (
    <>
      {failed ? <Alert type="error" showIcon title={failed.error} /> : null}
      <Tree
        className="folder-picker-tree"
        showIcon
        blockNode
        treeData={treeData}
        loadData={loadData}
        expandedKeys={expanded}
        onExpand={(keys) => setExpanded(keys)}
        selectedKeys={selected}
        onSelect={(keys, info) => {
          setSelected(keys);
          const key = keys[0];
          onChoose(
            key === undefined ? null : { id: fromKey(key), name: String(info.node.title ?? '') },
          );
        }}
        height={360}
        aria-label="Folders"
      />
    </>
  );
}

/**
 * The list picker (flag folderTreeView off): one folder's subfolders, with breadcrumbs; the
 * folder shown is the one chosen. Also the folder chooser of records management.
 */
export function ListPicker({ levels, excluded, onChoose, onLevelNeeded }: PickerProps) {
  const dispatch = useAppDispatch();
  const [path, setPath] = useState<PickerFolder[]>([PICKER_ROOT]);
  const current = path[path.length - 1]!;
  const level = levels[current.id];

  useEffect(() => {
    if (onLevelNeeded) onLevelNeeded(current.id);
    else dispatch(organiseActions.pickerLevelRequested({ parentId: current.id }));
    onChoose(current);
  }, [dispatch, current, onChoose, onLevelNeeded]);

  return (
    <div className="folder-picker-list">
      <Breadcrumb
        aria-label="Picker path"
        items={path.map((folder, index) => ({
          key: folder.id || ROOT_KEY,
          title:
            index === path.length - 1 ? (
              <span aria-current="location">{folder.name}</span>
            ) : (
              <Button type="link" size="small" onClick={() => setPath(path.slice(0, index + 1))}>
                {folder.name}
              </Button>
            ),
        }))}
      />
      {!level || level.status === 'loading' ? (
        <Spin />
      ) : level.status === 'failed' ? (
        <Alert type="error" showIcon title={level.error} />
      ) : level.folders.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No subfolders." />
      ) : (
        <ul className="folder-picker-items" aria-label="Subfolders">
          {level.folders.map((folder) => (
            <li key={folder.id}>
              <Button
                type="text"
                block
                disabled={excluded.has(folder.id)}
                icon={<FolderFilled aria-hidden />}
                onClick={() => setPath([...path, folder])}
              >
                <span className="folder-picker-name">{folder.name}</span>
                <RightOutlined aria-hidden />
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * The open dialog (mounted only while open, so its choice starts empty each time); closed, the
 * focus returns to what opened it (the row menu's button).
 */
function PickerModal() {
  const dispatch = useAppDispatch();
  const dialog = useAppSelector(selectPickerDialog);
  const levels = useAppSelector(selectPickerLevels);
  const treeView = useAppSelector((state) => selectFeatureFlag(state, 'folderTreeView'));
  const [target, setTarget] = useState<PickerFolder | null>(null);
  const excluded = useMemo(() => new Set(dialog.items.map((item) => item.id)), [dialog.items]);
  const isCopy = dialog.kind === 'copy';
  // The dialog unmounts when it closes (no closing motion to return the focus after).
  useReturnFocus(true);

  useEffect(() => {
    dispatch(organiseActions.pickerLevelRequested({ parentId: ROOT_FOLDER_ID }));
  }, [dispatch]);

  const count = dialog.items.length;
  const title = isCopy
    ? 'Copy folder to…'
    : `Move ${count === 1 ? '1 item' : `${count} items`} to…`;

  const onOk = () => {
    if (!target) return;
    if (isCopy) {
      dispatch(
        organiseEvents.copyRequested({ folderId: dialog.items[0]!.id, parentId: target.id }),
      );
    } else {
      dispatch(
        organiseEvents.moveRequested({
          items: dialog.items,
          folderId: target.id,
          folderName: target.name,
        }),
      );
    }
  };

  const Picker = treeView ? TreePicker : ListPicker;
  return (
    <Modal
      open
      title={title}
      okText={isCopy ? 'Copy here' : 'Move here'}
      cancelText="Cancel"
      okButtonProps={{ disabled: !target }}
      onOk={onOk}
      onCancel={() => dispatch(organiseActions.dialogClosed())}
      destroyOnHidden
    >
      <Picker levels={levels} excluded={excluded} onChoose={setTarget} />
      <p className="folder-picker-target" aria-live="polite">
        {target ? `Destination: ${target.name}` : 'Choose a destination folder.'}
      </p>
    </Modal>
  );
}

/** The dialog of organise/moveDialogOpened and organise/copyDialogOpened. */
export function FolderPickerDialog() {
  const dialog = useAppSelector(selectPickerDialog);
  return dialog.kind ? <PickerModal /> : null;
}
