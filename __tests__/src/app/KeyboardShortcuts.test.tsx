// The global keys: `/` focuses the header search (not while typing in a field), `?` opens the
// "Keyboard shortcuts" dialog, which lists the keys in <kbd>.
import { afterEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { KeyboardShortcuts, shortcutLines } from '@src/app/KeyboardShortcuts';
import { SearchBox } from '@src/features/search/components/SearchBox';
import type { AppStore } from '@src/store/store';
import { makeRecordingStore, renderWithProviders, signedInState, stubFetch } from '../testUtils';

describe('global keyboard shortcuts', () => {
  let store: AppStore | undefined;
  afterEach(() => store?.sagaTask.cancel());

  function render() {
    stubFetch(() => new Promise(() => undefined));
    store = makeRecordingStore(signedInState()).store;
    renderWithProviders(
      <>
        <SearchBox />
        <label>
          Note <input />
        </label>
        <button type="button">Elsewhere</button>
        <KeyboardShortcuts />
      </>,
      { store },
    );
  }

  it('/ focuses the header search, unless typed in a field', () => {
    render();
    const search = screen.getByRole('combobox', { name: 'Search' });
    const note = screen.getByLabelText('Note');
    note.focus();
    expect(fireEvent.keyDown(note, { key: '/' })).toBe(true);
    expect(note).toHaveFocus();
    const elsewhere = screen.getByRole('button', { name: 'Elsewhere' });
    elsewhere.focus();
    expect(fireEvent.keyDown(elsewhere, { key: '/' })).toBe(false);
    expect(search).toHaveFocus();
  });

  it('? opens the shortcuts dialog, which lists every key in <kbd>', async () => {
    render();
    fireEvent.keyDown(document.body, { key: '?', shiftKey: true });
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    const rows = within(dialog).getAllByRole('row');
    expect(rows).toHaveLength(shortcutLines().length + 1);
    const keysOf = (action: string) =>
      Array.from(
        rows.find((row) => row.textContent?.includes(action))!.querySelectorAll('kbd'),
        (kbd) => kbd.textContent,
      );
    expect(keysOf('Search')).toEqual(['/']);
    expect(keysOf('Undo the last action')).toEqual(['Ctrl', 'Z']);
    expect(keysOf('Archive the selected items')).toEqual(['Delete']);
    expect(keysOf('Rename')).toEqual(['F2']);
    expect(keysOf('Show the actions')).toEqual(['Shift', 'F10', 'Menu']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('lists Cmd instead of Ctrl on macOS', () => {
    const undo = shortcutLines(true).find((line) => line.action.startsWith('Undo'));
    expect(undo?.keys).toEqual([['Cmd', 'Z']]);
  });
});
