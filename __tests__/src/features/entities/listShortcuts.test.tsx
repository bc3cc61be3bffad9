// The folder list's keys: Delete archives the selection (or the focused row), F2 renames the one
// selected item, Enter and a double-click open a row.
import { afterEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
import type { EntityDto } from '@common/entities';
import { EntityList } from '@src/features/entities/components/EntityList';
import {
  entitiesActions,
  entitiesReducer,
  initialEntitiesState,
} from '@src/features/entities/entitiesSlice';
import type { AppStore } from '@src/store/store';
import {
  LocationProbe,
  makeFile,
  makeFolder,
  makePage,
  makeRecordingStore,
  makeUser,
  renderWithProviders,
  signedInState,
  stubFetch,
} from '../../testUtils';

const items: EntityDto[] = [
  makeFolder({ id: 'f1', name: 'Clients' }),
  makeFolder({ id: 'f2', name: 'Reports' }),
  makeFile({ id: 'p1', name: 'Statement.pdf', extension: 'pdf' }),
];

describe('folder list keys', () => {
  let store: AppStore | undefined;
  afterEach(() => store?.sagaTask.cancel());

  function render(session = signedInState()) {
    // The actions' calls stay unanswered: the events are what is looked at.
    stubFetch(() => new Promise(() => undefined));
    const opened = entitiesReducer(
      initialEntitiesState,
      entitiesActions.folderOpened({ folderId: '' }),
    );
    const entities = entitiesReducer(
      opened,
      entitiesActions.pageLoaded({ folderId: '', page: makePage(items) }),
    );
    const recording = makeRecordingStore({ ...session, entities });
    store = recording.store;
    renderWithProviders(
      <>
        <EntityList />
        <LocationProbe />
      </>,
      { store, route: '/home' },
    );
    return recording;
  }
  const rowOf = (name: string) =>
    screen.getAllByTestId('entity-row').find((row) => within(row).queryByText(name))!;
  const archived = (actions: { type: string; payload?: unknown }[]) =>
    actions.filter((action) => action.type === 'organise/archiveRequested');

  it('Delete archives the focused row when nothing is selected', () => {
    const { actions } = render();
    rowOf('Reports').focus();
    fireEvent.keyDown(rowOf('Reports'), { key: 'Delete' });
    expect(archived(actions)).toEqual([
      { type: 'organise/archiveRequested', payload: { items: [{ id: 'f2', type: 'folder' }] } },
    ]);
  });

  it('Delete archives the selection', () => {
    const { actions } = render();
    fireEvent.keyDown(rowOf('Clients'), { key: ' ' });
    fireEvent.keyDown(rowOf('Clients'), { key: 'ArrowDown', shiftKey: true });
    fireEvent.keyDown(rowOf('Reports'), { key: 'ArrowDown', shiftKey: true });
    fireEvent.keyDown(rowOf('Statement.pdf'), { key: 'Delete' });
    expect(archived(actions)[0]?.payload).toEqual({
      items: [
        { id: 'f1', type: 'folder' },
        { id: 'f2', type: 'folder' },
        { id: 'p1', type: 'file' },
      ],
    });
  });

  it('Delete does nothing for a read-only member', () => {
    const { actions } = render(
      signedInState(
        makeUser({
          databases: [
            { id: 'db1', name: 'north', description: 'North Advisors', role: 'read_only' },
          ],
        }),
      ),
    );
    fireEvent.keyDown(rowOf('Reports'), { key: 'Delete' });
    expect(archived(actions)).toEqual([]);
  });

  it('F2 renames the one selected item from the select-all box', () => {
    render();
    fireEvent.keyDown(rowOf('Reports'), { key: ' ' });
    const box = screen.getByLabelText('Select all');
    fireEvent.keyDown(box, { key: 'F2' });
    expect(screen.getByLabelText('New name for Reports')).toBeInTheDocument();
  });

  it('Enter and a double-click open a folder', () => {
    render();
    fireEvent.keyDown(rowOf('Reports'), { key: 'Enter' });
    expect(screen.getByTestId('location')).toHaveTextContent('/home/folders/f2');
    fireEvent.doubleClick(rowOf('Clients').querySelector('.entity-cell-date')!);
    expect(screen.getByTestId('location')).toHaveTextContent('/home/folders/f1');
  });
});
