// The admin section "Integrations" (/admin/integrations) inside the app, the api stubbed: the spec
// message when the switches cannot be read, enabling integrations for the current firm, and a new
// partner key for a member shown once, with a copy button and a warning, then listed by its prefix.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@common/messages';
import { App } from '@src/app/App';
import type { AppStore } from '@src/store/store';
import {
  callsTo,
  makeRecordingStore,
  makeUser,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';
import { PERMISSIONABLES } from '../folderPermissions/folderPermissionsFixtures';
import { makeCreatedKey, makeIntegration } from './integrationsFixtures';
import { allowConsoleError } from '../../consoleErrors';

/**
 * What the integrations page reads when it opens (the switches and the keys), and the
 * permissionables its key dialog offers members from.
 */
const routes: StubRoutes = {
  'GET /api/rest/private/permissionables': { body: PERMISSIONABLES },
  'GET /api/rest/private/integrations': { body: { integrations: [makeIntegration()] } },
  'GET /api/rest/private/integrations/userkey': { body: { keys: [] } },
};

let store: AppStore | undefined;
afterEach(() => {
  store?.sagaTask.cancel();
  store = undefined;
});

function renderAt(route: string, extra: StubRoutes = {}, user = makeUser()) {
  const stub = stubRoutes({ ...routes, ...extra });
  const recording = makeRecordingStore(signedInState(user));
  store = recording.store;
  renderWithProviders(<App />, { store, route });
  return { ...stub, ...recording };
}

/** The button whose text is `text` (text queries are much cheaper than role queries under jsdom). */
function button(container: HTMLElement, text: string): HTMLElement {
  const found = within(container).getByText(text, { selector: 'button span' }).closest('button');
  if (!found) throw new Error(`No button "${text}"`);
  return found;
}

/** The dialog whose title is `title`. */
async function findDialog(title: string): Promise<HTMLElement> {
  const heading = await screen.findByText(title, { selector: '.ant-modal-title' });
  const dialog = heading.closest('[role="dialog"]');
  if (!(dialog instanceof HTMLElement)) throw new Error(`No dialog "${title}"`);
  return dialog;
}

describe('integrations page', () => {
  it('says "Could not get integrations." when they cannot be read', async () => {
    allowConsoleError(/^GET \/api\/rest\/private\/integrations\S* answered 500/);
    renderAt('/admin/integrations', {
      'GET /api/rest/private/integrations': { status: 500, body: { message: 'x', code: 'x' } },
    });
    const text = await screen.findByText(MESSAGES.couldNotGetIntegrations, { exact: false });
    expect(text.closest('[role="alert"]')).toHaveTextContent(MESSAGES.couldNotGetIntegrations);
  });

  it('enables integrations for the current firm', async () => {
    const { calls } = renderAt('/admin/integrations', {
      'POST /api/rest/private/integrations/enable': { body: makeIntegration({ enabled: true }) },
    });
    const toggle = await screen.findByLabelText('Integrations for North Advisors');
    expect(toggle).not.toBeChecked();
    const user = userEvent.setup();
    await user.click(toggle);
    await waitFor(() => expect(toggle).toBeChecked());
    expect(callsTo(calls, 'POST /api/rest/private/integrations/enable')[0]?.body).toEqual({
      databaseId: 'db1',
    });
  });

  it('creates a key and shows it once with a copy button and a warning', async () => {
    const { calls } = renderAt('/admin/integrations', {
      'POST /api/rest/private/integrations/userkey': { status: 201, body: makeCreatedKey() },
    });
    const user = userEvent.setup();
    await screen.findByText('No partner keys yet.');
    await user.click(button(document.body, 'Create key'));
    const dialog = await findDialog('Create partner key');
    await user.click(within(dialog).getByLabelText('Member'));
    await user.click(await screen.findByTitle('Grace Hopper'));
    await user.click(within(dialog).getByLabelText('Partner app id'));
    await user.paste('crm');
    await user.click(button(dialog, 'Create key'));

    const shown = await findDialog('Your new partner key');
    expect(within(shown).getByLabelText('New key')).toHaveValue(makeCreatedKey().key);
    expect(shown).toHaveTextContent('It is shown only this once');
    await user.click(button(shown, 'Copy key'));
    // user-event's clipboard stands in for the browser's.
    await waitFor(async () =>
      expect(await navigator.clipboard.readText()).toBe(makeCreatedKey().key),
    );
    expect(callsTo(calls, 'POST /api/rest/private/integrations/userkey')[0]?.url).toBe(
      '/api/rest/private/integrations/userkey?partner_app_id=crm',
    );
    await user.click(button(shown, 'I have copied the key'));
    await waitFor(() => expect(screen.queryByLabelText('New key')).toBeNull());
    expect(await screen.findByText('dsk_AbCd1234…')).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(makeCreatedKey().key);
  });
});
