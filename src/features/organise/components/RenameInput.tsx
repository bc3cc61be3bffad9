/**
 * The inline rename of a row: opened by F2 or the row menu, Enter saves, Esc
 * cancels (so does leaving the field). For a file only the name before the extension is selected;
 * the server keeps the extension and answers the final, unique name.
 */
import { Input, Tooltip, type InputRef } from 'antd';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { MAX_NAME_LENGTH } from '@common/constants';
import { renameExtensionNotice, splitFileName, validateEntityName } from '@common/names';
import type { EntityRef } from '@common/entities';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { notificationsActions } from '@src/features/notifications/notificationsSlice';
import { organiseEvents } from '../organiseEvents';
import { selectRename } from '../organiseSelectors';
import { organiseActions } from '../organiseSlice';

/** Props of {@link RenameInput}. */
export interface RenameInputProps {
  item: EntityRef;
  /** The current name. */
  name: string;
}

/** Where the selection ends: before a file's extension, the whole name for a folder. */
function baseNameEnd(item: EntityRef, name: string): number {
  if (item.type === 'folder') return name.length;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? dot : name.length;
}

/** The editor that replaces a row's name while it is renamed. */
export function RenameInput({ item, name }: RenameInputProps) {
  const dispatch = useAppDispatch();
  const rename = useAppSelector(selectRename);
  const input = useRef<InputRef>(null);
  const saving = rename.status === 'loading';
  const [value, setValue] = useState(name);
  // A file keeps its extension: a name typed with another one says what will be saved.
  const notice =
    item.type === 'file' ? renameExtensionNotice(value, splitFileName(name).extension) : null;

  useEffect(() => {
    const element = input.current?.input;
    if (!element) return;
    element.focus();
    element.setSelectionRange(0, baseNameEnd(item, name));
  }, [item, name]);

  const save = (value: string) => {
    const next = value.trim();
    if (next === name) {
      dispatch(organiseActions.renameCancelled());
      return;
    }
    const problem = validateEntityName(next);
    if (problem) {
      dispatch(notificationsActions.infoMessageRequested({ text: problem, kind: 'error' }));
      return;
    }
    dispatch(
      organiseEvents.renameRequested({
        item: { id: item.id, type: item.type },
        name: next,
        previousName: name,
      }),
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // The row's own keys (Enter opens, F2, Ctrl/Cmd-A, Esc) must not see the editor's keys.
    event.stopPropagation();
    if (event.key === 'Enter') {
      event.preventDefault();
      if (!saving) save(event.currentTarget.value);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      dispatch(organiseActions.renameCancelled());
    }
  };

  return (
    <Tooltip open={notice !== null} title={notice} placement="bottomLeft">
      <Input
        ref={input}
        size="small"
        className="rename-input"
        defaultValue={name}
        maxLength={MAX_NAME_LENGTH}
        disabled={saving}
        aria-label={`New name for ${name}`}
        aria-description={notice ?? undefined}
        status={notice ? 'warning' : undefined}
        onChange={(event) => setValue(event.target.value)}
        onKeyDown={onKeyDown}
        onClick={(event) => event.stopPropagation()}
        onBlur={() => {
          if (!saving) dispatch(organiseActions.renameCancelled());
        }}
      />
    </Tooltip>
  );
}
