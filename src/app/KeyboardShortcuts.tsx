/**
 * The app's global keys and the "Keyboard shortcuts" dialog that lists every key of the app:
 * `/` puts the focus in the header search, `?` (Shift+/) opens the dialog. Neither acts while the
 * focus is in a text field, a dialog or a menu, or with Ctrl, Cmd or Alt held. The list's keys
 * themselves live with the lists (EntityRowView, EntityList, useListShortcuts, RowContextMenu)
 * and the undo keys with the toasts (useUndoShortcut).
 */
import { Button, Modal } from 'antd';
import { Fragment, useEffect, useState } from 'react';
import { isApplePlatform, isTextField } from '../features/notifications/useUndoShortcut';
import { SEARCH_INPUT_ID } from '../features/search/components/SearchBox';

/** One line of the dialog: the keys (alternatives separated by "or") and what they do. */
export interface ShortcutLine {
  /** Alternatives; each a list of keys pressed together. */
  keys: string[][];
  action: string;
}

/** The title of the dialog. */
export const SHORTCUTS_TITLE = 'Keyboard shortcuts';

/** Every shortcut of the app, as the dialog lists them (Cmd for Ctrl on macOS). */
export function shortcutLines(apple = isApplePlatform()): ShortcutLine[] {
  const command = apple ? 'Cmd' : 'Ctrl';
  return [
    { keys: [['/']], action: 'Search' },
    { keys: [['?']], action: 'Show the keyboard shortcuts' },
    { keys: [['↑'], ['↓']], action: 'Move to the previous or next item' },
    {
      keys: [
        ['Shift', '↑'],
        ['Shift', '↓'],
      ],
      action: 'Extend the selection',
    },
    { keys: [['Space']], action: 'Select or unselect the focused item' },
    { keys: [[command, 'A']], action: 'Select all items' },
    { keys: [['Esc']], action: 'Clear the selection, or close a menu or panel' },
    { keys: [['Enter']], action: 'Open the focused item (or double-click it)' },
    { keys: [['F2']], action: 'Rename the focused or selected item' },
    { keys: [['Delete']], action: 'Archive the selected items, or the focused one' },
    { keys: [['Shift', 'F10'], ['Menu']], action: 'Show the actions of the focused item' },
    { keys: [[command, 'Z']], action: 'Undo the last action while its notice is shown' },
    {
      keys: [['←'], ['→']],
      action: 'View as of: step to the previous or next change (↑ and ↓ too)',
    },
  ];
}

/** Whether a global key should be left alone: typed in a field, a dialog or a menu. */
function ignored(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return true;
  if (isTextField(event.target)) return true;
  const target = event.target instanceof Element ? event.target : null;
  return target?.closest('[role="dialog"], [role="menu"], [role="listbox"]') != null;
}

/** The keys of one alternative, each in a <kbd>, joined by "+". */
function Keys({ keys }: { keys: string[] }) {
  return (
    <>
      {keys.map((key, index) => (
        <Fragment key={key}>
          {index > 0 ? '+' : null}
          <kbd>{key}</kbd>
        </Fragment>
      ))}
    </>
  );
}

/**
 * Installs `/` and `?` on the document and renders the dialog while it is open.
 *
 * @returns the dialog (nothing while closed)
 */
export function KeyboardShortcuts() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (ignored(event)) return;
      if (event.key === '/') {
        const search = document.getElementById(SEARCH_INPUT_ID);
        if (!search) return;
        event.preventDefault();
        search.focus();
      } else if (event.key === '?') {
        event.preventDefault();
        setOpen(true);
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  if (!open) return null;
  const close = () => setOpen(false);
  return (
    <Modal
      open
      title={SHORTCUTS_TITLE}
      onCancel={close}
      closable={false}
      footer={
        <Button type="primary" onClick={close}>
          Close
        </Button>
      }
    >
      <table className="shortcuts-table">
        <thead>
          <tr>
            <th scope="col">Keys</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {shortcutLines().map((line) => (
            <tr key={line.action}>
              <td>
                {line.keys.map((keys, index) => (
                  <Fragment key={keys.join('+')}>
                    {index > 0 ? ' or ' : null}
                    <Keys keys={keys} />
                  </Fragment>
                ))}
              </td>
              <td>{line.action}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Modal>
  );
}
