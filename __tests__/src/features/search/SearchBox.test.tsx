import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { SearchBox } from '@src/features/search/components/SearchBox';
import type { AppStore } from '@src/store/store';
import {
  LocationProbe,
  makeRecordingStore,
  renderWithProviders,
  signedInState,
  stubRoutes,
} from '../../testUtils';
import { fileHit, fileSuggestion, folderSuggestion } from './searchFixtures';

let store: AppStore | undefined;
afterEach(() => {
  store?.sagaTask.cancel();
  store = undefined;
  jest.restoreAllMocks();
});

function LocationSearch() {
  return <output data-testid="search">{useLocation().search}</output>;
}

function renderBox() {
  const stub = stubRoutes({
    'GET /api/rest/files/d1': { body: fileHit('d1', 'Tax return.pdf') },
    'GET /api/rest/folders/f1/breadcrumbs': { body: [] },
    'GET /api/rest/entities/search/autocomplete': {
      body: {
        query: 'tax',
        items: [
          folderSuggestion('f9', 'Tax 2023'),
          fileSuggestion('d1', 'Tax return.pdf'),
          { ...fileSuggestion('d2', 'Ledger.xlsx'), matched_in: ['content'] },
        ],
      },
    },
  });
  const recording = makeRecordingStore(signedInState());
  store = recording.store;
  renderWithProviders(
    <>
      <SearchBox />
      <LocationProbe />
      <LocationSearch />
    </>,
    { store, route: '/home' },
  );
  return { ...stub, ...recording };
}

describe('SearchBox', () => {
  it('shows the suggestions with their paths; arrows and Enter open one', async () => {
    const user = userEvent.setup();
    renderBox();
    const box = screen.getByRole('combobox', { name: 'Search' });
    await user.click(box);
    await user.paste('tax');
    const option = await screen.findByRole('option', { name: /Tax return\.pdf/ });
    expect(option.textContent).toContain('Home / Clients');
    expect(option.textContent).not.toContain('Root');
    expect(option.textContent).not.toContain('found in the text');
    // A file found by its text says so after its path.
    expect(screen.getByRole('option', { name: /Ledger\.xlsx/ }).textContent).toContain(
      'Home / Clients · found in the text',
    );
    expect(screen.getByRole('option', { name: /Show all results for “tax”/ })).toBeTruthy();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(box.getAttribute('aria-activedescendant')).toBe(option.id);
    expect(option.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{Enter}');
    // A file opens its folder with the side panel on it, named in the address.
    expect(screen.getByTestId('location').textContent).toBe('/home/folders/f1');
    expect(screen.getByTestId('search').textContent).toBe('?details=file%3Ad1');
  });

  it('Enter with no active suggestion opens the results page', async () => {
    const user = userEvent.setup();
    renderBox();
    const box = screen.getByRole('combobox', { name: 'Search' });
    await user.click(box);
    await user.paste('tax');
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('location').textContent).toBe('/search');
    expect(screen.getByTestId('search').textContent).toBe('?q=tax');
  });

  it('Escape closes the list, then clears the box', async () => {
    const user = userEvent.setup();
    const { store } = renderBox();
    const box = screen.getByRole('combobox', { name: 'Search' });
    await user.click(box);
    await user.paste('tax');
    await screen.findByRole('option', { name: /Tax 2023/ });
    act(() => {
      fireEvent.keyDown(box, { key: 'Escape' });
    });
    await waitFor(() => expect(box.getAttribute('aria-expanded')).toBe('false'));
    fireEvent.keyDown(box, { key: 'Escape' });
    await waitFor(() => expect(store.getState().search.query).toBe(''));
  });
});
