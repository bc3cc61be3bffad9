// Closing the History drawer or the Details drawer gives the focus back to the element that
// opened it (a row's History button, the row menu's button), not to the page's body.
import { afterEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { useReturnFocus } from '@src/components/useReturnFocus';
import { DetailsPanel } from '@src/features/details/components/DetailsPanel';
import { EntityRowView } from '@src/features/entities/components/EntityRowView';
import { toEntityRow } from '@src/features/entities/entitiesSelectors';
import { EntityHistoryDrawer } from '@src/features/history/components/EntityHistoryDrawer';
import type { AppStore } from '@src/store/store';
import {
  makeFolder,
  makeRecordingStore,
  renderWithProviders,
  signedInState,
  stubFetch,
} from '../testUtils';

const folder = makeFolder({ id: 'f1', name: 'Clients' });

describe('focus return from the drawers', () => {
  let store: AppStore | undefined;
  afterEach(() => store?.sagaTask.cancel());

  function render() {
    // The drawers' reads stay unanswered: only the focus is looked at.
    stubFetch(() => new Promise(() => undefined));
    const recording = makeRecordingStore(signedInState());
    store = recording.store;
    renderWithProviders(
      <>
        <main id="main-content" tabIndex={-1}>
          <div role="table">
            <EntityRowView row={toEntityRow(folder)} index={0} />
          </div>
        </main>
        <EntityHistoryDrawer />
        <DetailsPanel />
      </>,
      { store, route: '/home' },
    );
  }

  it('closing the History drawer focuses the History button again', async () => {
    render();
    const history = screen.getByRole('button', { name: 'History of Clients' });
    history.focus();
    fireEvent.click(history);
    const drawer = await screen.findByRole('dialog', { name: 'History of "Clients"' });
    const close = within(drawer).getByRole('button', { name: 'Close' });
    close.focus();
    fireEvent.click(close);
    await waitFor(() => expect(history).toHaveFocus());
  });

  it('closing the Details drawer focuses the row menu’s button again', async () => {
    render();
    const button = screen.getByRole('button', { name: 'More actions for Clients' });
    button.focus();
    fireEvent.keyDown(button, { key: 'Enter' });
    const details = await screen.findByRole('menuitem', { name: 'Details' });
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Rename' })).toHaveFocus());
    details.focus();
    fireEvent.keyDown(details, { key: 'Enter' });
    const drawer = await screen.findByRole('dialog', { name: 'Details' });
    const close = within(drawer).getByRole('button', { name: 'Close' });
    close.focus();
    fireEvent.click(close);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'More actions for Clients' })).toHaveFocus(),
    );
    expect(store!.getState().details.target).toBeNull();
  });
});

/** A panel toggled by a button that disappears while the panel is open. */
function Vanishing() {
  const [open, setOpen] = useState(false);
  useReturnFocus(open);
  return (
    <>
      <main id="main-content" tabIndex={-1} />
      {open ? (
        <button key="close" type="button" onClick={() => setOpen(false)}>
          Close panel
        </button>
      ) : (
        <button key="open" type="button" onClick={() => setOpen(true)}>
          Open panel
        </button>
      )}
    </>
  );
}

describe('useReturnFocus', () => {
  it('focuses the main content when the opener is gone', async () => {
    stubFetch(() => new Promise(() => undefined));
    const recording = makeRecordingStore();
    renderWithProviders(<Vanishing />, { store: recording.store });
    const open = screen.getByRole('button', { name: 'Open panel' });
    open.focus();
    fireEvent.click(open);
    const close = screen.getByRole('button', { name: 'Close panel' });
    close.focus();
    fireEvent.click(close);
    await waitFor(() => expect(document.getElementById('main-content')).toHaveFocus());
    recording.store.sagaTask.cancel();
  });
});
