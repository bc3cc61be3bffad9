// The folder page's organising components: inline rename (F2, Enter saves the server's name, Esc
// cancels) and the bulk toolbar over a selection made with click, Shift-click, Ctrl/Cmd-A, Esc and
// the arrows.
import { afterEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EntityDto } from '@common/entities';
import { EntityList } from '@src/features/entities/components/EntityList';
import {
  entitiesActions,
  entitiesReducer,
  initialEntitiesState,
} from '@src/features/entities/entitiesSlice';
import { BulkToolbar } from '@src/features/organise/components/BulkToolbar';
import type { AppStore } from '@src/store/store';
import {
  callsTo,
  makeFile,
  makeFolder,
  makePage,
  makeRecordingStore,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';

const items: EntityDto[] = [
  makeFolder({ id: 'f1', name: 'Clients' }),
  makeFolder({ id: 'f2', name: 'Reports' }),
  makeFile({ id: 'x1', name: 'Budget.xlsx', extension: 'xlsx' }),
  makeFile({ id: 'p1', name: 'Statement.pdf', extension: 'pdf' }),
];

describe('folder page organising', () => {
  let store: AppStore | undefined;
  afterEach(() => {
    store?.sagaTask.cancel();
  });

  function render(routes: StubRoutes = {}) {
    const stub = stubRoutes(routes);
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
    renderWithProviders(
      <>
        <BulkToolbar />
        <EntityList />
      </>,
      { store, route: '/home' },
    );
    return { ...stub, store: recording.store };
  }
  const rowOf = (name: string) =>
    screen.getAllByTestId('entity-row').find((row) => within(row).queryByText(name))!;
  const clickRow = (name: string, modifiers: Partial<MouseEventInit> = {}) =>
    fireEvent.click(rowOf(name).querySelector('.entity-cell-date')!, modifiers);

  it('F2 opens the rename with the base name selected; Enter saves the server’s name', async () => {
    const { calls } = render({
      'PATCH /api/rest/files/x1': { body: { ...items[2]!, name: 'Plan (1).xlsx' } },
    });
    fireEvent.keyDown(rowOf('Budget.xlsx'), { key: 'F2' });
    const input = screen.getByLabelText<HTMLInputElement>('New name for Budget.xlsx');
    await waitFor(() => expect(input).toHaveFocus());
    expect([input.selectionStart, input.selectionEnd]).toEqual([0, 'Budget'.length]);
    const user = userEvent.setup();
    await user.clear(input);
    await user.paste('Plan');
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(await screen.findByText('Plan (1).xlsx')).toBeInTheDocument();
    expect(callsTo(calls, 'PATCH /api/rest/files/x1')[0]!.body).toEqual({ name: 'Plan' });
    expect(screen.queryByLabelText('New name for Budget.xlsx')).not.toBeInTheDocument();
  });

  it('says before saving that a file keeps its extension when another one is typed', async () => {
    render({});
    fireEvent.keyDown(rowOf('Budget.xlsx'), { key: 'F2' });
    const input = screen.getByLabelText<HTMLInputElement>('New name for Budget.xlsx');
    const user = userEvent.setup();
    await user.clear(input);
    await user.paste('Budget.csv');
    const notice = 'A file keeps its extension: this will be saved as “Budget.csv.xlsx”.';
    expect(await screen.findByText(notice)).toBeInTheDocument();
    expect(input).toHaveAccessibleDescription(notice);
    await user.clear(input);
    await user.paste('Budget 2');
    await waitFor(() => expect(input).not.toHaveAccessibleDescription(notice));
  });

  it('Esc cancels the rename without a call', async () => {
    const { calls } = render();
    fireEvent.keyDown(rowOf('Clients'), { key: 'F2' });
    const input = screen.getByLabelText('New name for Clients');
    const user = userEvent.setup();
    await user.clear(input);
    await user.paste('Other');
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.queryByLabelText('New name for Clients')).not.toBeInTheDocument();
    expect(screen.getByText('Clients')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('an invalid name is refused in place with the rule’s message', async () => {
    const { calls, store } = render();
    fireEvent.keyDown(rowOf('Clients'), { key: 'F2' });
    const input = screen.getByLabelText('New name for Clients');
    const user = userEvent.setup();
    await user.clear(input);
    await user.paste('a/b');
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(store.getState().notifications.messages[0]?.kind).toBe('error');
    expect(screen.getByLabelText('New name for Clients')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('Shift-click selects a range; the toolbar archives exactly it', async () => {
    const { calls, store } = render({
      'POST /api/rest/bulk/archive': {
        body: {
          count: 3,
          items: [
            { id: 'f2', type: 'folder', name: 'Reports' },
            { id: 'x1', type: 'file', name: 'Budget.xlsx' },
            { id: 'p1', type: 'file', name: 'Statement.pdf' },
          ],
        },
      },
    });
    expect(screen.queryByRole('toolbar', { name: 'Selected items' })).not.toBeInTheDocument();
    clickRow('Reports');
    clickRow('Statement.pdf', { shiftKey: true });
    const toolbar = screen.getByRole('toolbar', { name: 'Selected items' });
    expect(toolbar).toHaveTextContent('3 items selected');
    expect(rowOf('Clients')).toHaveAttribute('aria-selected', 'false');
    expect(rowOf('Budget.xlsx')).toHaveAttribute('aria-selected', 'true');
    // One folder alone offers the zip; three items do not.
    expect(within(toolbar).queryByRole('link', { name: /Download/ })).not.toBeInTheDocument();

    await userEvent.setup().click(within(toolbar).getByRole('button', { name: 'Archive' }));
    await waitFor(() => expect(screen.getAllByTestId('entity-row')).toHaveLength(1));
    expect(callsTo(calls, 'POST /api/rest/bulk/archive')[0]!.body).toEqual({
      items: [
        { id: 'f2', type: 'folder' },
        { id: 'x1', type: 'file' },
        { id: 'p1', type: 'file' },
      ],
    });
    expect(store.getState().notifications.toasts[0]).toMatchObject({
      title: 'Archived',
      body: '3 items archived.',
    });
    expect(screen.queryByRole('toolbar', { name: 'Selected items' })).not.toBeInTheDocument();
  });

  it('Ctrl/Cmd-A and the header checkbox select all, Esc clears, Ctrl-click toggles', () => {
    render();
    const table = screen.getByRole('table');
    fireEvent.keyDown(rowOf('Clients'), { key: 'a', ctrlKey: true });
    expect(screen.getByRole('toolbar', { name: 'Selected items' })).toHaveTextContent(
      '4 items selected',
    );
    expect(screen.getByRole('checkbox', { name: 'Select all' })).toBeChecked();
    fireEvent.keyDown(table, { key: 'Escape' });
    expect(screen.queryByRole('toolbar', { name: 'Selected items' })).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    expect(screen.getByRole('toolbar', { name: 'Selected items' })).toHaveTextContent(
      '4 items selected',
    );
    clickRow('Reports', { metaKey: true });
    expect(screen.getByRole('toolbar', { name: 'Selected items' })).toHaveTextContent(
      '3 items selected',
    );
    clickRow('Clients');
    expect(screen.getByRole('toolbar', { name: 'Selected items' })).toHaveTextContent(
      '1 item selected',
    );
    // One folder selected: the toolbar offers its zip download.
    const toolbar = screen.getByRole('toolbar', { name: 'Selected items' });
    expect(within(toolbar).getByRole('link', { name: 'Download' })).toHaveAttribute(
      'href',
      '/api/rest/folders/f1/download',
    );
  });

  it('the arrows move between rows; with Shift they extend the selection', () => {
    render();
    const selected = () => Object.keys(store!.getState().organise.selection.ids).sort();
    rowOf('Clients').focus();
    fireEvent.keyDown(rowOf('Clients'), { key: 'ArrowDown' });
    expect(rowOf('Reports')).toHaveFocus();
    expect(selected()).toEqual([]);
    fireEvent.keyDown(rowOf('Reports'), { key: 'ArrowUp' });
    expect(rowOf('Clients')).toHaveFocus();
    // At either end the focus stays.
    fireEvent.keyDown(rowOf('Clients'), { key: 'ArrowUp' });
    expect(rowOf('Clients')).toHaveFocus();
    // Shift-Down from a row with nothing selected selects it and the next one.
    fireEvent.keyDown(rowOf('Clients'), { key: 'ArrowDown', shiftKey: true });
    expect(rowOf('Reports')).toHaveFocus();
    expect(selected()).toEqual(['f1', 'f2']);
    fireEvent.keyDown(rowOf('Reports'), { key: 'ArrowDown', shiftKey: true });
    expect(rowOf('Budget.xlsx')).toHaveFocus();
    expect(selected()).toEqual(['f1', 'f2', 'x1']);
    // Back up shrinks the range towards its anchor.
    fireEvent.keyDown(rowOf('Budget.xlsx'), { key: 'ArrowUp', shiftKey: true });
    expect(selected()).toEqual(['f1', 'f2']);
    rowOf('Statement.pdf').focus();
    fireEvent.keyDown(rowOf('Statement.pdf'), { key: 'ArrowDown' });
    expect(rowOf('Statement.pdf')).toHaveFocus();
    expect(selected()).toEqual(['f1', 'f2']);
  });

  it('a row’s star asks for the favorite and shows it pressed', async () => {
    const { calls } = render({
      'PATCH /api/rest/folders/f2/favorite': { body: { ...items[1]!, favorite: true } },
    });
    const star = screen.getByRole('button', { name: 'Favorite Reports' });
    expect(star).toHaveAttribute('aria-pressed', 'false');
    fireEvent.click(star);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Favorite Reports' })).toHaveAttribute(
        'aria-pressed',
        'true',
      ),
    );
    expect(callsTo(calls, 'PATCH /api/rest/folders/f2/favorite')[0]!.body).toEqual({
      enabled: true,
    });
  });
});
