// The admin section "Teams" (/admin/teams) inside the app, the api stubbed: the teams with their
// members (named from the permissionables) and the count, and renaming a team in its dialog.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
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
import { makeTeam } from './teamsFixtures';

/** What the teams page reads when it opens: the teams, and the permissionables naming members. */
const routes: StubRoutes = {
  'GET /api/rest/private/permissionables': { body: PERMISSIONABLES },
  'GET /api/rest/private/teams': { body: [makeTeam()] },
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

describe('teams page', () => {
  it('lists teams with their members and renames one', async () => {
    const { calls } = renderAt('/admin/teams', {
      'PATCH /api/rest/private/teams/t1': { body: makeTeam({ name: 'Planners' }) },
    });
    const teams = await screen.findByLabelText('Team list');
    await within(teams).findByText('1 member · Grace Hopper');
    expect(screen.getByText('1 team')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByLabelText('Rename Advisors'));
    const dialog = await findDialog('Rename team');
    const name = within(dialog).getByLabelText('Team name');
    await user.clear(name);
    await user.click(name);
    await user.paste('Planners');
    await user.click(button(dialog, 'Rename'));
    expect(await screen.findByText('Planners')).toBeInTheDocument();
    expect(callsTo(calls, 'PATCH /api/rest/private/teams/t1')[0]?.body).toEqual({
      name: 'Planners',
    });
  });
});
