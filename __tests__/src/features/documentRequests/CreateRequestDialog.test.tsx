// The folder page's "Request documents" dialog, the api stubbed: a template fills the checklist
// and the message, an empty checklist is refused with REQUEST_MESSAGES.noItems, the folder's
// contact e-mail is offered, the body posted, the links shown with a success toast; read-only
// members and the root folder get no button.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { ROOT_FOLDER_ID } from '@common/constants';
import { REQUEST_MESSAGES } from '@common/documentRequests';
import { FolderToolbar } from '@src/features/entities/components/FolderToolbar';
import { RequestDocumentsButton } from '@src/features/documentRequests/components/RequestDocumentsButton';
import { MAIL_FAILED_TEXT } from '@src/features/documentRequests/documentRequestsSagas';
import type { AppStore } from '@src/store/store';
import { allowConsoleError } from '../../consoleErrors';
import {
  callsTo,
  makeRecordingStore,
  makeUser,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';
import {
  makeField,
  makeFolderContact,
  makeRequest,
  makeTemplate,
} from './documentRequestsFixtures';

let store: AppStore | undefined;
afterEach(() => {
  store?.sagaTask.cancel();
  store = undefined;
});

const BASE: StubRoutes = {
  'GET /api/rest/request_templates': { body: { items: [makeTemplate()] } },
  'GET /api/rest/index_fields': { body: [makeField()] },
  'GET /api/rest/folders/f1/folder_contacts': { body: { items: [makeFolderContact()] } },
};

function show(extra: StubRoutes = {}, role: 'admin' | 'member' | 'read_only' = 'member') {
  const stub = stubRoutes({ ...BASE, ...extra });
  const user = makeUser({
    databases: [{ id: 'db1', name: 'north', description: 'North Advisors', role }],
  });
  const recording = makeRecordingStore(signedInState(user));
  store = recording.store;
  renderWithProviders(<RequestDocumentsButton folderId="f1" folderName="Smith family" />, {
    store,
  });
  return { ...stub, ...recording };
}

async function openDialog(): Promise<HTMLElement> {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Request documents' }));
  const heading = await screen.findByText('Request documents', { selector: '.ant-modal-title' });
  return heading.closest('[role="dialog"]') as HTMLElement;
}

describe('Request documents dialog', () => {
  it('fills the checklist and the message from a template', async () => {
    const { calls } = show();
    const dialog = await openDialog();
    const user = userEvent.setup();
    expect(within(dialog).getByLabelText('Title')).toHaveValue('Documents for Smith family');
    await waitFor(() => expect(callsTo(calls, 'GET /api/rest/request_templates')).toHaveLength(1));
    await user.click(within(dialog).getByLabelText('Template (optional)'));
    await user.click(await screen.findByTitle('Annual review'));
    expect(within(dialog).getByLabelText('Item 1 name')).toHaveValue('Bank statement');
    expect(within(dialog).getByLabelText('Item 1 description')).toHaveValue('Last 3 months');
    expect(within(dialog).getByLabelText('Item 2 name')).toHaveValue('Tax return');
    expect(within(dialog).getByLabelText('Value of Tax return index value 1')).toHaveValue('2029');
    expect(within(dialog).getByLabelText('Message (optional)')).toHaveValue(
      'Ahead of our annual review, please upload:',
    );
  });

  it('refuses an empty checklist with the noItems message and posts nothing', async () => {
    const { calls } = show();
    const dialog = await openDialog();
    const user = userEvent.setup();
    await user.click(within(dialog).getByRole('button', { name: 'Remove item 1' }));
    expect(within(dialog).queryByLabelText('Item 1 name')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Send request' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(REQUEST_MESSAGES.noItems);
    expect(callsTo(calls, 'POST /api/rest/requests')).toHaveLength(0);
  });

  it('offers the folder contact’s e-mail, posts the request and shows its links', async () => {
    const created = makeRequest({ id: 'r9' });
    const { calls, actions } = show({
      'POST /api/rest/requests': {
        status: 201,
        body: {
          request: created,
          links: [{ email: 'jane@example.com', url: 'https://dossier.test/r/tok1' }],
          mail_failed: true,
        },
      },
    });
    const dialog = await openDialog();
    const user = userEvent.setup();
    await user.type(within(dialog).getByLabelText('Item 1 name'), 'Passport');
    await user.click(within(dialog).getByRole('button', { name: 'Add item' }));
    // The focus follows the added item.
    await waitFor(() => expect(within(dialog).getByLabelText('Item 2 name')).toHaveFocus());
    await user.keyboard('Utility bill');
    await user.click(within(dialog).getByRole('button', { name: 'Move Utility bill up' }));
    expect(within(dialog).getByLabelText('Item 1 name')).toHaveValue('Utility bill');
    await user.type(within(dialog).getByLabelText('Message (optional)'), '  Thanks!  ');
    await user.click(within(dialog).getByLabelText('Recipients'));
    const option = await screen.findByTitle('Jane Smith <jane@example.com>');
    await user.click(option);
    await user.click(within(dialog).getByText('Put uploads in a subfolder for this request'));
    await user.type(within(dialog).getByLabelText('Password (optional)'), 's3cret');
    await user.click(within(dialog).getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(callsTo(calls, 'POST /api/rest/requests')).toHaveLength(1));
    expect(callsTo(calls, 'POST /api/rest/requests')[0]?.body).toEqual({
      folder_id: 'f1',
      title: 'Documents for Smith family',
      items: [{ name: 'Utility bill' }, { name: 'Passport' }],
      message: 'Thanks!',
      due_date: dayjs().add(14, 'day').format('YYYY-MM-DD'),
      recipients: ['jane@example.com'],
      subfolder: true,
      reminder_days_before: 3,
      password: 's3cret',
    });
    expect(await within(dialog).findByLabelText('Link for jane@example.com')).toHaveValue(
      'https://dossier.test/r/tok1',
    );
    expect(
      within(dialog).getByRole('button', { name: 'Copy link for jane@example.com' }),
    ).toBeInTheDocument();
    expect(within(dialog).getByText(MAIL_FAILED_TEXT)).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Open the request' })).toHaveAttribute(
      'href',
      '/requests/r9',
    );
    const messages = actions
      .filter((a) => a.type === 'notifications/infoMessageRequested')
      .map((a) => (a as unknown as { payload: { kind: string; text: string } }).payload);
    expect(messages).toEqual([
      expect.objectContaining({ kind: 'success', text: 'Request sent to 1 recipient.' }),
      expect.objectContaining({ kind: 'warning', text: MAIL_FAILED_TEXT }),
    ]);
  });

  it('sends the chosen template’s id and shows the server’s refusal', async () => {
    allowConsoleError(/answered 400/);
    const { calls } = show({
      'POST /api/rest/requests': {
        status: 400,
        body: { code: 'invalid', message: REQUEST_MESSAGES.dueDateInvalid },
      },
    });
    const dialog = await openDialog();
    const user = userEvent.setup();
    await user.click(within(dialog).getByLabelText('Template (optional)'));
    await user.click(await screen.findByTitle('Annual review'));
    await user.type(within(dialog).getByLabelText('Recipients'), 'bob@example.com,');
    await user.click(within(dialog).getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(callsTo(calls, 'POST /api/rest/requests')).toHaveLength(1));
    expect(callsTo(calls, 'POST /api/rest/requests')[0]?.body).toMatchObject({
      template_id: 't1',
      recipients: ['bob@example.com'],
      message: 'Ahead of our annual review, please upload:',
      items: [
        { name: 'Bank statement', description: 'Last 3 months' },
        { name: 'Tax return', index_values: [{ index_field_id: 'x1', value: '2029' }] },
      ],
    });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      REQUEST_MESSAGES.dueDateInvalid,
    );
  });

  it('refuses an invalid recipient before sending', async () => {
    const { calls } = show();
    const dialog = await openDialog();
    const user = userEvent.setup();
    await user.type(within(dialog).getByLabelText('Item 1 name'), 'Passport');
    await user.type(within(dialog).getByLabelText('Recipients'), 'not-an-address,');
    await user.click(within(dialog).getByRole('button', { name: 'Send request' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      REQUEST_MESSAGES.invalidEmail,
    );
    expect(callsTo(calls, 'POST /api/rest/requests')).toHaveLength(0);
  });

  it('is not offered to a read-only member', () => {
    show({}, 'read_only');
    expect(screen.queryByRole('button', { name: 'Request documents' })).toBeNull();
  });
});

describe('folder toolbar', () => {
  function showToolbar(folderId: string) {
    stubRoutes(BASE);
    const recording = makeRecordingStore(signedInState());
    store = recording.store;
    renderWithProviders(<FolderToolbar folderId={folderId} />, { store });
  }

  it('has no "Request documents" on the root', () => {
    showToolbar(ROOT_FOLDER_ID);
    expect(screen.getByRole('button', { name: 'New folder' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Request documents' })).toBeNull();
  });

  it('offers "Request documents" on a folder, once its name is known', () => {
    showToolbar('f1');
    // The open folder in the store is still the root: the button waits for the folder's name.
    expect(screen.getByRole('button', { name: 'Request documents' })).toBeDisabled();
  });
});
