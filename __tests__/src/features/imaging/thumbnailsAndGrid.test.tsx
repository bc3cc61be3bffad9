/**
 * Thumbnails in the folder list and the list/grid layout switch: an image only for a file whose
 * DTO says a thumbnail is stored (lazy, async, decorative), the type icon otherwise; the toggle
 * (aria-pressed) lays the list out as cards and is remembered for the signed-in user only.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { VirtuosoGridMockContext } from 'react-virtuoso';
import type { EntityDto } from '@common/entities';
import { EntityList } from '@src/features/entities/components/EntityList';
import {
  entitiesActions,
  entitiesReducer,
  initialEntitiesState,
} from '@src/features/entities/entitiesSlice';
import {
  GRID_VIEW_LABEL,
  ListLayoutToggle,
} from '@src/features/imaging/components/ListLayoutToggle';
import { LIST_LAYOUT_PREFERENCE } from '@src/features/imaging/imagingSagas';
import { selectListLayout } from '@src/features/imaging/imagingSelectors';
import { cacheUser, clearCachedUser, readCachedUser } from '@src/features/session/userCache';
import { makeStore, type AppStore } from '@src/store/store';
import {
  makeFile,
  makeFolder,
  makePage,
  makeUser,
  renderWithProviders,
  signedInState,
  stubFetch,
} from '../../testUtils';

const items: EntityDto[] = [
  makeFolder({ id: 'f1', name: 'Clients' }),
  makeFile({ id: 'p1', name: 'Statement.pdf', thumbnail: true }),
  makeFile({ id: 'p2', name: 'Draft.pdf', thumbnail: false }),
];

function storeWith(list: EntityDto[]): AppStore {
  const opened = entitiesReducer(
    initialEntitiesState,
    entitiesActions.folderOpened({ folderId: '' }),
  );
  const entities = entitiesReducer(
    opened,
    entitiesActions.pageLoaded({ folderId: '', page: makePage(list, 1, list.length) }),
  );
  return makeStore({ ...signedInState(), entities });
}

/** The folder list with the layout switch, in a grid test viewport as well. */
function listWithToggle(): ReactElement {
  return (
    <VirtuosoGridMockContext.Provider
      value={{ viewportHeight: 1000, viewportWidth: 800, itemHeight: 216, itemWidth: 180 }}
    >
      <ListLayoutToggle />
      <EntityList />
    </VirtuosoGridMockContext.Provider>
  );
}

describe('thumbnails and the grid layout', () => {
  let store: AppStore | null = null;
  beforeEach(() => {
    clearCachedUser();
    stubFetch(() => new Promise(() => undefined));
  });
  afterEach(() => {
    store?.sagaTask.cancel();
    store = null;
    clearCachedUser();
  });

  it('shows a lazy, decorative thumbnail only for files the DTO says have one', () => {
    store = storeWith(items);
    renderWithProviders(<EntityList />, { store });
    const row = (id: string) =>
      screen.getAllByTestId('entity-row').find((r) => r.dataset.entityId === id)!;
    const image = row('p1').querySelector('img');
    expect(image).not.toBeNull();
    expect(image).toHaveAttribute('src', '/api/rest/files/p1/thumbnail');
    expect(image).toHaveAttribute('alt', '');
    expect(image).toHaveAttribute('loading', 'lazy');
    expect(image).toHaveAttribute('decoding', 'async');
    expect(row('p2').querySelector('img')).toBeNull();
    expect(within(row('p2')).getByRole('img')).toHaveAttribute('data-kind', 'pdf');
    expect(row('f1').querySelector('img')).toBeNull();
  });

  it('falls back to the type icon when the thumbnail cannot be loaded', () => {
    store = storeWith(items);
    renderWithProviders(<EntityList />, { store });
    const row = screen.getAllByTestId('entity-row').find((r) => r.dataset.entityId === 'p1')!;
    act(() => {
      row.querySelector('img')!.dispatchEvent(new Event('error'));
    });
    expect(row.querySelector('img')).toBeNull();
    expect(within(row).getByRole('img')).toHaveAttribute('data-kind', 'pdf');
  });

  it('switches to cards with the toggle and remembers the choice for the user', async () => {
    cacheUser(makeUser());
    store = storeWith(items);
    renderWithProviders(listWithToggle(), { store });
    const toggle = screen.getByRole('button', { name: GRID_VIEW_LABEL });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    expect(document.querySelector('.virtual-grid-items')).toBeNull();

    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('table')).toHaveClass('entity-table-grid');
    const grid = document.querySelector('.virtual-grid-items');
    expect(grid).not.toBeNull();
    // Every card keeps the row's selection and actions.
    const cards = within(grid as HTMLElement).getAllByTestId('entity-row');
    expect(cards.map((card) => card.dataset.entityId)).toEqual(['f1', 'p1', 'p2']);
    expect(within(cards[1]!).getByRole('checkbox', { name: 'Select Statement.pdf' })).toBeVisible();
    expect(
      within(cards[1]!).getByRole('button', { name: 'More actions for Statement.pdf' }),
    ).toBeInTheDocument();
    expect(cards[1]!.querySelector('.file-thumbnail-grid img')).not.toBeNull();
    expect(readCachedUser()?.preferences[LIST_LAYOUT_PREFERENCE]).toBe('grid');

    // A new page load of the same user starts in the grid.
    store.sagaTask.cancel();
    store = makeStore(signedInState());
    await waitFor(() => expect(selectListLayout(store!.getState())).toBe('grid'));
  });

  it('does not give one user the layout another chose', async () => {
    cacheUser(makeUser());
    store = storeWith(items);
    renderWithProviders(listWithToggle(), { store });
    await userEvent.click(screen.getByRole('button', { name: GRID_VIEW_LABEL }));
    store.sagaTask.cancel();

    const other = makeUser({ userId: 'u2', username: 'grace' });
    cacheUser(other);
    store = makeStore(signedInState(other));
    // Restored at start from the cached user (now the other one, without preferences).
    await waitFor(() => expect(selectListLayout(store!.getState())).toBe('list'));
    expect(readCachedUser()?.preferences[LIST_LAYOUT_PREFERENCE]).toBeUndefined();
  });
});
