// The rows' "More actions" menu and context menu from the keyboard: Enter, Space and ArrowDown
// open the menu on its first item, the arrows move, Enter and Space activate every item (Copy
// to…, the Colour submenu), Escape closes it back on the button; the context menu (right-click,
// Shift+F10) offers the same items.
import { afterEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { EntityDto } from '@common/entities';
import { EntityList } from '@src/features/entities/components/EntityList';
import {
  entitiesActions,
  entitiesReducer,
  initialEntitiesState,
} from '@src/features/entities/entitiesSlice';
import type { AppStore } from '@src/store/store';
import {
  makeFile,
  makeFolder,
  makePage,
  makeRecordingStore,
  renderWithProviders,
  signedInState,
  stubRoutes,
} from '../../testUtils';

const items: EntityDto[] = [
  makeFolder({ id: 'f1', name: 'Clients' }),
  makeFile({ id: 'p1', name: 'Statement.pdf', extension: 'pdf' }),
];

describe('row menus from the keyboard', () => {
  let store: AppStore | undefined;
  afterEach(() => {
    store?.sagaTask.cancel();
  });

  function render() {
    // The actions' calls are not what these tests look at: they stay unanswered.
    const pending = () => new Promise<never>(() => {});
    stubRoutes({
      'GET /api/rest/folders': { body: makePage([]) },
      'POST /api/rest/bulk/color': pending,
    });
    const opened = entitiesReducer(
      initialEntitiesState,
      entitiesActions.folderOpened({ folderId: '' }),
    );
    const entities = entitiesReducer(
      opened,
      entitiesActions.pageLoaded({ folderId: '', page: makePage(items) }),
    );
    const recording = makeRecordingStore({ ...signedInState(), entities });
    store = recording.store;
    renderWithProviders(<EntityList />, { store, route: '/home' });
    return recording;
  }

  const menuButton = (name: string) =>
    screen.getByRole('button', { name: `More actions for ${name}` });
  const item = (name: string) => screen.getByRole('menuitem', { name });
  /** The texts of the items of the menu that holds `element`. */
  const menuTexts = (element: HTMLElement) =>
    within(element.closest<HTMLElement>('[role="menu"]')!)
      .getAllByRole('menuitem')
      .map((menuItem) => menuItem.textContent);
  const ALL_ITEMS = [
    'Rename',
    'Move to…',
    'Copy to…',
    'Colour',
    'Download as zip',
    'Details',
    'Archive',
  ];
  const openWith = async (name: string, key: string) => {
    const button = menuButton(name);
    button.focus();
    fireEvent.keyDown(button, { key });
    await waitFor(() => expect(item('Rename')).toHaveFocus());
    // The button is rendered anew inside its menu on first use.
    return menuButton(name);
  };

  it('Enter opens the menu on its first item; the arrows move; Escape returns to the button', async () => {
    render();
    const button = await openWith('Clients', 'Enter');
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(menuTexts(item('Rename'))).toEqual(ALL_ITEMS);
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(item('Move to…')).toHaveFocus();
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    expect(item('Archive')).toHaveFocus();
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    expect(item('Rename')).toHaveFocus();
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('ArrowDown and Space open it too', async () => {
    render();
    const button = await openWith('Statement.pdf', 'ArrowDown');
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(button).toHaveFocus();
    await openWith('Statement.pdf', ' ');
  });

  it('Enter on Copy to… opens the copy dialog; the focus is back on the button first', async () => {
    render();
    const button = await openWith('Clients', 'Enter');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(item('Copy to…')).toHaveFocus();
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    expect(store!.getState().organise.dialog).toEqual({
      kind: 'copy',
      items: [{ id: 'f1', type: 'folder' }],
    });
    expect(button).toHaveFocus();
  });

  it('Space on Move to… opens the move dialog', async () => {
    render();
    await openWith('Statement.pdf', 'Enter');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(item('Move to…')).toHaveFocus();
    fireEvent.keyDown(document.activeElement!, { key: ' ' });
    expect(store!.getState().organise.dialog.kind).toBe('move');
  });

  it('Enter on Colour opens the submenu on its first colour; Enter there sets it', async () => {
    const { actions } = render();
    await openWith('Clients', 'Enter');
    // antd's submenu arrow icon adds its label ("right") to the title's name.
    const colour = screen.getByRole('menuitem', { name: /^Colour/ });
    colour.focus();
    fireEvent.keyDown(colour, { key: 'Enter' });
    const first = await screen.findByRole('menuitem', { name: 'Default' });
    await waitFor(() => expect(first).toHaveFocus());
    expect(colour).toHaveAttribute('aria-expanded', 'true');
    fireEvent.keyDown(first, { key: 'ArrowLeft' });
    expect(colour).toHaveFocus();
    fireEvent.keyDown(colour, { key: ' ' });
    await waitFor(() => expect(first).toHaveFocus());
    fireEvent.keyDown(first, { key: 'ArrowDown' });
    expect(screen.getByRole('menuitem', { name: 'Grey' })).toHaveFocus();
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    expect(actions.find((action) => action.type === 'organise/colorRequested')).toMatchObject({
      payload: { items: [{ id: 'f1', type: 'folder' }], color: 'grey' },
    });
    expect(menuButton('Clients')).toHaveFocus();
  });

  it('the context menu offers the same items, from a right-click or Shift+F10', async () => {
    render();
    const row = screen.getAllByTestId('entity-row')[0]!;
    fireEvent.contextMenu(within(row).getByText('Clients'));
    const rename = await screen.findByRole('menuitem', { name: 'Rename' });
    expect(menuTexts(rename)).toEqual(ALL_ITEMS);
    expect(row).toHaveFocus();
    fireEvent.keyDown(rename, { key: 'Escape' });
    expect(row).toHaveFocus();

    fireEvent.keyDown(row, { key: 'F10', shiftKey: true });
    await waitFor(() => expect(item('Rename')).toHaveFocus());
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    expect(store!.getState().organise.dialog.kind).toBe('move');
    expect(row).toHaveFocus();
  });

  it('a file row’s context menu (ContextMenu key) has the file’s items', async () => {
    render();
    const row = screen.getAllByTestId('entity-row')[1]!;
    row.focus();
    fireEvent.keyDown(row, { key: 'ContextMenu' });
    await waitFor(() => expect(item('Rename')).toHaveFocus());
    expect(menuTexts(item('Rename'))).toEqual([
      'Rename',
      'Move to…',
      'Make a copy',
      'Details',
      'Archive',
    ]);
  });
});
