/**
 * The bulk toolbar of the folder page: shown while rows are selected, with their
 * count and Move to…, Colour (folders; flag folderColors), Archive, Make a copy (files only),
 * Download (one zip of everything selected; one folder is its own folder zip) and a button that
 * clears the selection.
 */
import { BgColorsOutlined, CloseOutlined, CopyOutlined, DownloadOutlined } from '@ant-design/icons';
import { Button, Dropdown, Space, type MenuProps } from 'antd';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectFeatureFlag } from '@src/features/flags/flagsSelectors';
import { folderDownloadUrl } from '../organiseApi';
import { organiseEvents } from '../organiseEvents';
import {
  selectCanOrganise,
  selectOrganiseRequest,
  selectSelectedItems,
} from '../organiseSelectors';
import { organiseActions } from '../organiseSlice';
import { colorFromMenuKey, colorMenuItems } from './colorMenu';
import { BulkApplyIndexButton } from '@src/features/indexFields/components/BulkApplyIndexButton';

/** "1 item selected", "50 items selected". */
function selectedText(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'item' : 'items'} selected`;
}

/** The toolbar; a hint in its place while no row is selected. */
export function BulkToolbar() {
  const dispatch = useAppDispatch();
  const selected = useAppSelector(selectSelectedItems);
  const request = useAppSelector(selectOrganiseRequest);
  const colorsOn = useAppSelector((state) => selectFeatureFlag(state, 'folderColors'));
  const canOrganise = useAppSelector(selectCanOrganise);
  // The bar keeps its place while nothing is selected, so rows never jump when a selection
  // starts (or when a drag starts from a row).
  if (selected.length === 0) {
    return (
      <div className="bulk-toolbar bulk-toolbar-idle">
        Select rows (click, Ctrl/Cmd-click, Shift-click) to move, colour or archive several items.
      </div>
    );
  }

  const refs = selected.map(({ id, type }) => ({ id, type }));
  const folders = refs.filter((item) => item.type === 'folder');
  const onlyFolder = selected.length === 1 && selected[0]!.type === 'folder' ? selected[0]! : null;
  const onlyFiles = refs.every((item) => item.type === 'file');
  const busy = (action: string) => request.status === 'loading' && request.action === action;

  const onColor: MenuProps['onClick'] = ({ key }) => {
    const color = colorFromMenuKey(key);
    if (color) dispatch(organiseEvents.colorRequested({ items: folders, color }));
  };

  return (
    <div className="bulk-toolbar" role="toolbar" aria-label="Selected items">
      <span className="bulk-toolbar-count" aria-live="polite">
        {selectedText(selected.length)}
      </span>
      <Space wrap size={8}>
        {canOrganise ? (
          <Button
            loading={busy('move')}
            onClick={() => dispatch(organiseEvents.moveDialogOpened({ items: refs }))}
          >
            Move to…
          </Button>
        ) : null}
        {colorsOn ? (
          <Dropdown
            menu={{ items: colorMenuItems(), onClick: onColor }}
            trigger={['click']}
            disabled={folders.length === 0}
          >
            <Button icon={<BgColorsOutlined aria-hidden />} loading={busy('color')}>
              Colour
            </Button>
          </Dropdown>
        ) : null}
        {canOrganise ? (
          <Button
            danger
            loading={busy('archive')}
            onClick={() => dispatch(organiseEvents.archiveRequested({ items: refs }))}
          >
            Archive
          </Button>
        ) : null}
        {canOrganise ? (
          <BulkApplyIndexButton
            fileIds={selected.filter((item) => item.type === 'file').map((item) => item.id)}
          />
        ) : null}
        {canOrganise && onlyFiles ? (
          <Button
            icon={<CopyOutlined aria-hidden />}
            loading={busy('duplicate')}
            onClick={() => dispatch(organiseEvents.fileCopyRequested({ items: refs }))}
          >
            Make a copy
          </Button>
        ) : null}
        {onlyFolder ? (
          <Button
            icon={<DownloadOutlined aria-hidden />}
            href={folderDownloadUrl(onlyFolder.id)}
            download={`${onlyFolder.name}.zip`}
          >
            Download
          </Button>
        ) : (
          <Button
            icon={<DownloadOutlined aria-hidden />}
            onClick={() => dispatch(organiseEvents.selectionDownloadRequested({ items: refs }))}
          >
            Download
          </Button>
        )}
        <Button
          type="text"
          icon={<CloseOutlined aria-hidden />}
          aria-label="Clear selection"
          onClick={() => dispatch(organiseActions.selectionCleared())}
        />
      </Space>
    </div>
  );
}
