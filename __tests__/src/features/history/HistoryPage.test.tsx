import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import { App } from '../../../../src/app/App';
import type { AppStore } from '../../../../src/store/store';
import {
  makeEvent,
  makePage,
  makeRecordingStore,
  renderWithProviders,
  signedInState,
  stubRoutes,
} from '../../testUtils';

describe('HistoryPage', () => {
  let store: AppStore;
  afterEach(() => store.sagaTask.cancel());

  function renderHistory() {
    const recording = makeRecordingStore(signedInState());
    store = recording.store;
    renderWithProviders(<App />, { store, route: '/history' });
    return recording;
  }

  it('lists events newest first with icon, summary, detail and date', async () => {
    stubRoutes({
      'POST /api/rest/history': {
        body: makePage(
          [
            makeEvent({
              id: 'e2',
              entity_type: 'file',
              action: 'create',
              attributes: { name: 'Statement.pdf', parent: { id: 'f1', name: 'Clients' } },
              created_at: '2024-03-06T10:00:00.000Z',
            }),
            makeEvent({ id: 'e1', entity_type: 'user', action: 'login', attributes: {} }),
          ],
          1,
          2,
        ),
      },
    });
    renderHistory();
    const list = await screen.findByRole('list', { name: 'Activity history' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Ada Lovelace added file "Statement.pdf"');
    expect(rows[0]).toHaveTextContent('in "Clients"');
    expect(rows[0]!.querySelector('[data-icon]')).toHaveAttribute('data-icon', 'add');
    expect(within(rows[0]!).getByText(/^Mar 6, 2024/)).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('Ada Lovelace');
    expect(rows[1]!.querySelector('[data-icon]')).toHaveAttribute('data-icon', 'login');
  });

  it('says so when there is no activity', async () => {
    stubRoutes({ 'POST /api/rest/history': { body: makePage([]) } });
    renderHistory();
    expect(
      await screen.findByText('No activity yet. Uploads, new folders and sign-ins appear here.'),
    ).toBeInTheDocument();
  });
});
