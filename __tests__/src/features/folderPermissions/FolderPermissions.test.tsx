// The folder permissions dialog of a folder's side panel inside the app, the api stubbed: offered
// to administrators only; the folder's permissions listed, users and teams added, one removed and
// all removed after a confirmation.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CursorPage } from '@common/api';
import { App } from '@src/app/App';
import { detailsActions } from '@src/features/details/detailsSlice';
import type { AppStore } from '@src/store/store';
import {
  callsTo,
  makeFolder,
  makeRecordingStore,
  makeUser,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';
import { PERMISSIONABLES, makePermission } from './folderPermissionsFixtures';
import { allowConsoleError, UNSTUBBED_ROUTE } from '../../consoleErrors';

// Routes a test does not stub answer 404 "Not found." (fixtures.ts): these screens read more
// than each test stubs.
beforeEach(() => allowConsoleError(UNSTUBBED_ROUTE));

const empty: CursorPage<never> = {
  items: [],
  page: 1,
  page_size: 100,
  total: 0,
  next_cursor: null,
};
const clients = makeFolder({ id: 'f1', name: 'Clients' });

let store: AppStore | undefined;
afterEach(() => {
  store?.sagaTask.cancel();
  store = undefined;
});

function openPanel(extra: StubRoutes, user = makeUser()) {
  const stub = stubRoutes({
    'GET /api/rest/entities/favorites': { body: empty },
    'GET /api/rest/folders/f1': { body: clients },
    'GET /api/rest/folders/f1/breadcrumbs': {
      body: [{ id: 'f1', name: 'Clients', type: 'breadcrumb' }],
    },
    'GET /api/rest/private/permissionables': { body: PERMISSIONABLES },
    ...extra,
  });
  const recording = makeRecordingStore(signedInState(user));
  store = recording.store;
  renderWithProviders(<App />, { store, route: '/favorites' });
  act(() => {
    store!.dispatch(detailsActions.panelOpened({ id: 'f1', type: 'folder' }));
  });
  return stub;
}

function button(container: HTMLElement, text: string): HTMLElement {
  const found = within(container).getByText(text, { selector: 'button span' }).closest('button');
  if (!found) throw new Error(`No button "${text}"`);
  return found;
}

describe('folder permissions dialog', () => {
  it('is offered to administrators only', async () => {
    openPanel({}, makeUser({ currentDatabaseId: 'db2' }));
    const item = await screen.findByTestId('details-item');
    expect(within(item).getByText('History', { selector: 'button span' })).toBeInTheDocument();
    expect(within(item).queryByText('Permissions', { selector: 'button span' })).toBeNull();
  });

  it('lists, adds, removes one and removes all', async () => {
    let permissions = [makePermission()];
    const { calls } = openPanel({
      'GET /api/rest/folders/f1/permissions': () => ({ body: permissions }),
      'POST /api/rest/folder_permissions': () => {
        permissions = [
          ...permissions,
          makePermission({
            id: 'p2',
            permissionable_id: 't1',
            permissionable_type: 'team',
            name: 'Advisors',
          }),
        ];
        return { status: 201, body: permissions.slice(1) };
      },
      'DELETE /api/rest/folder_permissions/p1': () => {
        permissions = permissions.filter((item) => item.id !== 'p1');
        return { status: 204 };
      },
      'DELETE /api/rest/folders/f1/permissions': () => {
        permissions = [];
        return { status: 204 };
      },
    });
    const user = userEvent.setup();
    const item = await screen.findByTestId('details-item');
    await user.click(button(item, 'Permissions'));
    const title = await screen.findByText('Permissions of “Clients”', {
      selector: '.ant-modal-title',
    });
    const dialog = title.closest('[role="dialog"]') as HTMLElement;
    const list = within(dialog).getByLabelText('Folder permissions');
    await within(list).findByText('Grace Hopper');
    expect(dialog).toHaveTextContent('Restricted: only the 1 permission below');

    await user.click(within(dialog).getByLabelText('Users or teams to add'));
    await user.click(await screen.findByTitle('Advisors (Team)'));
    await user.click(button(dialog, 'Add'));
    await within(list).findByText('Advisors');
    expect(callsTo(calls, 'POST /api/rest/folder_permissions')[0]?.body).toEqual({
      folder_id: 'f1',
      permissionables: [{ permissionable_id: 't1', permissionable_type: 'team' }],
    });
    expect(dialog).toHaveTextContent('only the 2 permissions below');

    await user.click(within(list).getByLabelText('Remove Grace Hopper'));
    await waitFor(() => expect(within(list).queryByText('Grace Hopper')).toBeNull());

    await user.click(button(dialog, 'Remove all'));
    const confirmTitle = await screen.findByText('Remove all permissions of “Clients”?', {
      selector: '.ant-modal-confirm-title',
    });
    const confirm = confirmTitle.closest('.ant-modal') as HTMLElement;
    await user.click(button(confirm, 'Remove all'));
    await waitFor(() =>
      expect(dialog).toHaveTextContent('Everyone in the firm can see this folder.'),
    );
    expect(callsTo(calls, 'DELETE /api/rest/folders/f1/permissions')).toHaveLength(1);
  });
});
