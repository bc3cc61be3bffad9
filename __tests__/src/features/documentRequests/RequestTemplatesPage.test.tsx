// The admin section "Request templates", the api stubbed: the empty state, creating a template
// with the checklist editor (its name and checklist checked first), editing and deleting one.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { REQUEST_MESSAGES } from '@common/documentRequests';
import {
  NO_TEMPLATES_TEXT,
  RequestTemplatesPage,
} from '@src/features/documentRequests/components/RequestTemplatesPage';
import type { AppStore } from '@src/store/store';
import {
  callsTo,
  makeRecordingStore,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';
import { makeField, makeTemplate } from './documentRequestsFixtures';

let store: AppStore | undefined;
afterEach(() => {
  store?.sagaTask.cancel();
  store = undefined;
});

function show(routes: StubRoutes) {
  const stub = stubRoutes({ 'GET /api/rest/index_fields': { body: [makeField()] }, ...routes });
  const recording = makeRecordingStore(signedInState());
  store = recording.store;
  renderWithProviders(<RequestTemplatesPage />, { store });
  return stub;
}

async function findDialog(title: string): Promise<HTMLElement> {
  const heading = await screen.findByText(title, { selector: '.ant-modal-title' });
  return heading.closest('[role="dialog"]') as HTMLElement;
}

describe('Admin → Request templates', () => {
  it('creates a template with the checklist editor', async () => {
    const created = makeTemplate({
      id: 't2',
      name: 'Onboarding',
      message: '',
      items: [{ name: 'ID', index_values: [{ index_field_id: 'x1', value: '2030' }] }],
    });
    const { calls } = show({
      'GET /api/rest/request_templates': { body: { items: [] } },
      'POST /api/rest/private/request_templates': { status: 201, body: created },
    });
    const user = userEvent.setup();
    await screen.findByText(NO_TEMPLATES_TEXT);
    await user.click(screen.getByRole('button', { name: 'New template' }));
    const dialog = await findDialog('New request template');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      REQUEST_MESSAGES.templateNameRequired,
    );
    await user.type(within(dialog).getByLabelText('Template name'), 'Onboarding');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('alert')).toHaveTextContent(
        REQUEST_MESSAGES.itemNameRequired,
      ),
    );
    expect(callsTo(calls, 'POST /api/rest/private/request_templates')).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Item 1 name'), 'ID');
    await user.click(within(dialog).getByRole('button', { name: 'Add index value' }));
    await user.click(within(dialog).getByLabelText('Index field of ID index value 1'));
    await user.click(await screen.findByTitle('Tax year'));
    await user.type(within(dialog).getByLabelText('Value of ID index value 1'), '2030');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(callsTo(calls, 'POST /api/rest/private/request_templates')[0]?.body).toEqual({
        name: 'Onboarding',
        message: '',
        items: [{ name: 'ID', index_values: [{ index_field_id: 'x1', value: '2030' }] }],
      }),
    );
    const card = await screen.findByRole('listitem', { name: 'Onboarding' });
    expect(within(card).getByRole('list', { name: 'Items of Onboarding' })).toHaveTextContent('ID');
    await waitFor(() => expect(screen.queryByText('New request template')).toBeNull());
  });

  it('edits and deletes a template', async () => {
    const template = makeTemplate();
    const { calls } = show({
      'GET /api/rest/request_templates': { body: { items: [template] } },
      'PATCH /api/rest/private/request_templates/t1': {
        body: { ...template, name: 'Yearly review' },
      },
      'DELETE /api/rest/private/request_templates/t1': { status: 204 },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Annual review' }));
    const dialog = await findDialog('Edit “Annual review”');
    expect(within(dialog).getByLabelText('Item 2 name')).toHaveValue('Tax return');
    const name = within(dialog).getByLabelText('Template name');
    await user.clear(name);
    await user.type(name, 'Yearly review');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(callsTo(calls, 'PATCH /api/rest/private/request_templates/t1')[0]?.body).toEqual({
        name: 'Yearly review',
        message: template.message,
        items: template.items,
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Delete Yearly review' }));
    const title = await screen.findByText('Delete “Yearly review”?', {
      selector: '.ant-modal-confirm-title',
    });
    await user.click(
      within(title.closest('.ant-modal') as HTMLElement).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText(NO_TEMPLATES_TEXT)).toBeInTheDocument();
    expect(callsTo(calls, 'DELETE /api/rest/private/request_templates/t1')).toHaveLength(1);
  });
});
