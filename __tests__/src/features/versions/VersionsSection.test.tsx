// The details panel's Versions section: every version with its number, size, sha256 (short, the
// full value to screen readers and on hover), who and when; Preview and Download addresses;
// "Restore as newest" (members) adds the new version and updates the file everywhere; Delete of an
// older version for administrators after a confirmation; read-only members list only; a refusal
// is shown with the server's message.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FileVersionDto } from '@common/versions';
import { VersionsSection } from '@src/features/versions/components/VersionsSection';
import { detailsActions } from '@src/features/details/detailsSlice';
import type { AppStore } from '@src/store/store';
import { allowConsoleError } from '../../consoleErrors';
import {
  callsTo,
  makeFile,
  makeRecordingStore,
  makeUser,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';

let store: AppStore | undefined;
afterEach(() => {
  store?.sagaTask.cancel();
  store = undefined;
});

const SHA1 = 'a1'.repeat(32);
const SHA2 = 'b2'.repeat(32);

function version(overrides: Partial<FileVersionDto>): FileVersionDto {
  return {
    number: 1,
    size: 1536,
    sha256: SHA1,
    content_type: 'application/pdf',
    created_by: 'u1',
    created_by_name: 'Ada Lovelace',
    created_at: '2024-03-05T14:07:00.000Z',
    restored_from: null,
    newest: false,
    ...overrides,
  };
}

const v1 = version({});
const v2 = version({
  number: 2,
  size: 2_097_152,
  sha256: SHA2,
  created_by: 'u2',
  created_by_name: 'Grace Hopper',
  created_at: '2024-03-06T09:30:00.000Z',
  newest: true,
});

const file = makeFile({ id: 'file1', name: 'Statement.pdf', size: 2_097_152, sha256: SHA2 });

function show(routes: StubRoutes, role: 'admin' | 'member' | 'read_only' = 'member') {
  const stub = stubRoutes(routes);
  const user = makeUser({
    databases: [{ id: 'db1', name: 'north', description: 'North Advisors', role }],
  });
  const recording = makeRecordingStore(signedInState(user));
  store = recording.store;
  renderWithProviders(<VersionsSection file={file} />, { store });
  return { ...stub, ...recording };
}

/** The texts of the info messages requested. */
const messagesOf = (actions: readonly { type: string; payload?: unknown }[]) =>
  actions
    .filter((action) => action.type === 'notifications/infoMessageRequested')
    .map((action) => (action.payload as { text: string }).text);

const rowsOf = async () =>
  within(await screen.findByRole('list', { name: 'Versions of this file' })).getAllByRole(
    'listitem',
  );

describe('VersionsSection', () => {
  it('lists every version, newest first, with size, sha256, who and when', async () => {
    show({ 'GET /api/rest/files/file1/versions': { body: { items: [v2, v1] } } });
    const rows = await rowsOf();
    expect(rows.map((row) => row.getAttribute('aria-label'))).toEqual(['Version 2', 'Version 1']);
    expect(screen.getByRole('heading', { name: 'Versions (2)' })).toBeInTheDocument();
    const newest = rows[0]!;
    expect(within(newest).getByText('Newest')).toBeInTheDocument();
    expect(newest).toHaveTextContent('2.0 MB · Grace Hopper · Mar 6, 2024');
    // The sha256 is shown short, and whole to screen readers and on hover.
    expect(within(newest).getByText(`${SHA2.slice(0, 12)}…`)).toBeInTheDocument();
    expect(within(newest).getByText(SHA2)).toHaveClass('visually-hidden');
    expect(within(newest).getByText(SHA2).closest('code')).toHaveAttribute('title', SHA2);
    expect(within(rows[1]!).queryByText('Newest')).toBeNull();
    expect(rows[1]).toHaveTextContent('1.5 KB · Ada Lovelace');
    // Preview and Download address each version.
    expect(within(rows[1]!).getByRole('link', { name: 'Preview version 1' })).toHaveAttribute(
      'href',
      '/api/rest/files/file1/versions/1/preview',
    );
    expect(within(rows[1]!).getByRole('link', { name: 'Download version 1' })).toHaveAttribute(
      'href',
      '/api/rest/files/file1/versions/1/download',
    );
    // The newest is not restored; a member deletes nothing.
    expect(within(newest).queryByRole('button', { name: /Restore/ })).toBeNull();
    expect(
      within(rows[1]!).getByRole('button', { name: 'Restore version 1 as newest' }),
    ).toBeEnabled();
    expect(screen.queryByRole('button', { name: /Delete version/ })).toBeNull();
  });

  it('restores an older version as the newest and updates the file for the other views', async () => {
    const restored = version({
      number: 3,
      restored_from: 1,
      created_by_name: 'Ada Lovelace',
      created_at: '2024-03-07T10:00:00.000Z',
      newest: true,
    });
    const now = makeFile({ ...file, size: 1536, sha256: SHA1, updated_at: restored.created_at });
    const { calls, actions } = show({
      'GET /api/rest/files/file1/versions': { body: { items: [v2, v1] } },
      'POST /api/rest/files/file1/versions/1/restore': {
        status: 201,
        body: { file_id: 'file1', version: restored },
      },
      'GET /api/rest/files/file1': { body: now },
    });
    store!.dispatch(detailsActions.panelOpened({ id: 'file1', type: 'file' }));
    const user = userEvent.setup();
    const rows = await rowsOf();
    await user.click(within(rows[1]!).getByRole('button', { name: 'Restore version 1 as newest' }));
    await waitFor(async () => expect(await rowsOf()).toHaveLength(3));
    const after = await rowsOf();
    expect(after.map((row) => row.getAttribute('aria-label'))).toEqual([
      'Version 3',
      'Version 2',
      'Version 1',
    ]);
    expect(after[0]).toHaveTextContent('restored from version 1');
    expect(within(after[0]!).getByText('Newest')).toBeInTheDocument();
    expect(within(after[1]!).queryByText('Newest')).toBeNull();
    expect(callsTo(calls, 'POST /api/rest/files/file1/versions/1/restore')).toHaveLength(1);
    // The info message the notification center shows.
    expect(messagesOf(actions)).toEqual(['Version 1 was restored as version 3.']);
    // The file as it is now reaches the lists and the panel.
    const announced = actions.find((a) => a.type === 'versions/restoreSucceeded') as
      { payload: { file: { size: number } } } | undefined;
    expect(announced?.payload.file.size).toBe(1536);
  });

  it('lets an administrator delete an older version after confirming', async () => {
    let items = [v2, v1];
    const { calls, actions } = show(
      {
        'GET /api/rest/files/file1/versions': () => ({ body: { items } }),
        'DELETE /api/rest/files/file1/versions/1': () => {
          items = [v2];
          return { status: 204 };
        },
      },
      'admin',
    );
    const user = userEvent.setup();
    const rows = await rowsOf();
    expect(within(rows[0]!).queryByRole('button', { name: /Delete/ })).toBeNull();
    await user.click(within(rows[1]!).getByRole('button', { name: 'Delete version 1' }));
    // Nothing is deleted before the confirmation.
    expect(callsTo(calls, 'DELETE /api/rest/files/file1/versions/1')).toHaveLength(0);
    await user.click(await screen.findByRole('button', { name: 'Delete version' }));
    await waitFor(async () => expect(await rowsOf()).toHaveLength(1));
    expect(callsTo(calls, 'DELETE /api/rest/files/file1/versions/1')).toHaveLength(1);
    expect(messagesOf(actions)).toEqual(['Version 1 was deleted.']);
  });

  it('shows a read-only member the versions without Restore or Delete', async () => {
    show({ 'GET /api/rest/files/file1/versions': { body: { items: [v2, v1] } } }, 'read_only');
    await rowsOf();
    expect(screen.queryByRole('button', { name: /Restore|Delete/ })).toBeNull();
    expect(screen.getAllByRole('link', { name: /Download version/ })).toHaveLength(2);
  });

  it("says why a restore was refused, with the server's message", async () => {
    allowConsoleError(/answered 409/);
    show({
      'GET /api/rest/files/file1/versions': { body: { items: [v2, v1] } },
      'POST /api/rest/files/file1/versions/1/restore': {
        status: 409,
        body: { message: 'Version 1 is already the newest.', code: 'version_is_newest' },
      },
    });
    const user = userEvent.setup();
    const rows = await rowsOf();
    await user.click(within(rows[1]!).getByRole('button', { name: 'Restore version 1 as newest' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Version 1 is already the newest.');
    expect(await rowsOf()).toHaveLength(2);
  });

  it('says when a version has no sha256 yet, and when the list cannot be read', async () => {
    allowConsoleError(/answered 500/);
    let fail = false;
    show({
      'GET /api/rest/files/file1/versions': () =>
        fail
          ? { status: 500, body: { message: 'Something went wrong.', code: 'internal' } }
          : { body: { items: [version({ sha256: null, newest: true })] } },
    });
    const rows = await rowsOf();
    expect(rows[0]).toHaveTextContent('SHA-256 not computed yet');
    fail = true;
    store!.dispatch({ type: 'versions/versionsRequested', payload: { fileId: 'file1' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
