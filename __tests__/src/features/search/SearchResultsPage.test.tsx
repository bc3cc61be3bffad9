import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import type { IndexFieldDto } from '@common/indexFields';
import { SearchResultsPage } from '@src/features/search/components/SearchResultsPage';
import type { AppStore } from '@src/store/store';
import {
  callsTo,
  makeRecordingStore,
  renderWithProviders,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../testUtils';
import { fileHit, folderHit } from './searchFixtures';

let store: AppStore | undefined;
afterEach(() => {
  store?.sagaTask.cancel();
  store = undefined;
  jest.restoreAllMocks();
});

const TAX_YEAR: IndexFieldDto = {
  id: 'tax',
  name: 'Tax year',
  type: 'number',
  description: '',
  position: 0,
  values: [],
  archived_at: null,
  deleted_at: null,
  created_at: '2024-01-01T00:00:00.000Z',
  updated_at: '2024-01-01T00:00:00.000Z',
};

function LocationSearch() {
  return <output data-testid="search">{useLocation().search}</output>;
}

function renderPage(route: string, extra: StubRoutes = {}) {
  const stub = stubRoutes({
    'GET /api/rest/index_fields': { body: [TAX_YEAR] },
    'POST /api/rest/entities/search': {
      body: {
        items: [
          fileHit('d1', 'Tax return.pdf', { matched_in: ['index'] }),
          folderHit('f9', 'Tax 2023'),
        ],
        page: 1,
        page_size: 50,
        total: 2,
      },
    },
    ...extra,
  });
  const recording = makeRecordingStore(signedInState());
  store = recording.store;
  renderWithProviders(
    <>
      <SearchResultsPage />
      <LocationSearch />
    </>,
    { store, route },
  );
  return { ...stub, ...recording };
}

describe('SearchResultsPage', () => {
  it('searches what the URL says and lists the results with their paths', async () => {
    const { calls } = renderPage('/search?q=tax&type=PDF&index=tax:2023&favorites=1');
    const list = await screen.findByRole('list', { name: 'Search results' });
    const row = within(list).getByRole('listitem', { name: 'Tax return.pdf' });
    expect(within(row).getByRole('link', { name: 'Clients' }).getAttribute('href')).toBe(
      '/home/folders/f1',
    );
    // The root reads "Home", as everywhere else.
    expect(
      within(row).getByRole('navigation', { name: 'Location of Tax return.pdf' }),
    ).toHaveTextContent('Home / Clients');
    expect(within(row).getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/home');
    expect(within(row).getByText('Index value')).toBeTruthy();
    expect(screen.getByText('2 results')).toBeTruthy();
    expect(callsTo(calls, 'POST /api/rest/entities/search')[0]!.body).toEqual({
      filters: {
        query: 'tax',
        types: ['PDF'],
        index_values: [{ index_field_id: 'tax', value: '2023' }],
        favorites_only: true,
      },
    });
    // The index filter reads with its field's name once the fields are in.
    expect(await screen.findByText('Tax year: 2023')).toBeTruthy();
  });

  it('shows a folder hit in the colour the user gave it', async () => {
    renderPage('/search?q=smith', {
      'POST /api/rest/entities/search': {
        body: {
          items: [{ ...folderHit('f9', 'Smith'), color: 'dark_green' }],
          page: 1,
          page_size: 50,
          total: 1,
        },
      },
    });
    const row = await screen.findByRole('listitem', { name: 'Smith' });
    expect(within(row).getByRole('img', { name: 'folder' })).toHaveAttribute(
      'data-color',
      'dark_green',
    );
  });

  it('a filter change goes to the URL and searches again', async () => {
    const user = userEvent.setup();
    const { calls } = renderPage('/search?q=tax');
    await screen.findByRole('list', { name: 'Search results' });
    await user.click(screen.getByRole('checkbox', { name: 'Archived' }));
    await waitFor(() => expect(screen.getByTestId('search').textContent).toBe('?q=tax&archived=1'));
    await waitFor(() => expect(callsTo(calls, 'POST /api/rest/entities/search')).toHaveLength(2));
    expect(callsTo(calls, 'POST /api/rest/entities/search')[1]!.body).toEqual({
      filters: { query: 'tax', archived: true },
    });
    await user.click(screen.getByRole('button', { name: 'Search in this folder' }));
    await waitFor(() =>
      expect(screen.getByTestId('search').textContent).toBe(
        '?q=tax&archived=1&folder=f9&folder_name=Tax+2023',
      ),
    );
  });

  it('says what to do with nothing asked, and when nothing matches', async () => {
    renderPage('/search');
    expect(
      screen.getByText('Type in the search box or choose filters to find files and folders.'),
    ).toBeTruthy();
    store?.sagaTask.cancel();
    document.body.innerHTML = '';
    renderPage('/search?q=zzz', {
      'POST /api/rest/entities/search': { body: { items: [], page: 1, page_size: 50, total: 0 } },
    });
    expect(await screen.findByText('No matching documents or folders.')).toBeTruthy();
  });

  it('shows a content hit with its marked snippet and page, linking to the viewer on that page', async () => {
    const user = userEvent.setup();
    const { calls } = renderPage('/search?q=quokka&type=PDF', {
      'POST /api/rest/entities/search': {
        body: {
          items: [
            fileHit('d7', 'Deed.pdf', {
              matched_in: ['content'],
              content: {
                page: 3,
                snippet: [
                  { text: '…the ', match: false },
                  { text: 'quokka', match: true },
                  { text: ' <b>estate</b>…', match: false },
                ],
              },
            }),
          ],
          page: 1,
          page_size: 50,
          total: 1,
        },
      },
    });
    const row = await screen.findByRole('listitem', { name: 'Deed.pdf' });
    const link = within(row).getByRole('link', { name: 'Open Deed.pdf at page 3' });
    expect(link).toHaveTextContent('…the quokka <b>estate</b>… Page 3');
    // The query's word is marked; the rest is text, never markup.
    const marks = link.querySelectorAll('mark');
    expect([...marks].map((m) => m.textContent)).toEqual(['quokka']);
    expect(link.querySelector('b')).toBeNull();
    expect(within(row).getByText('File text')).toBeTruthy();
    // The link keeps the current address and adds the viewer's parameters.
    expect(link.getAttribute('href')).toBe('/search?q=quokka&type=PDF&view=file%3Ad7&page=3');
    await user.click(link);
    await waitFor(() =>
      expect(screen.getByTestId('search').textContent).toBe(
        '?q=quokka&type=PDF&view=file%3Ad7&page=3',
      ),
    );
    // Opening the viewer does not search again.
    expect(callsTo(calls, 'POST /api/rest/entities/search')).toHaveLength(1);
  });

  it('keeps the names-only filter in the URL and asks without content', async () => {
    const user = userEvent.setup();
    const { calls } = renderPage('/search?q=tax');
    await screen.findByRole('list', { name: 'Search results' });
    const box = screen.getByRole('checkbox', { name: 'Also in file text' });
    expect(box).toBeChecked();
    await user.click(box);
    await waitFor(() => expect(screen.getByTestId('search').textContent).toBe('?q=tax&content=0'));
    await waitFor(() => expect(callsTo(calls, 'POST /api/rest/entities/search')).toHaveLength(2));
    expect(callsTo(calls, 'POST /api/rest/entities/search')[1]!.body).toEqual({
      filters: { query: 'tax', content: false },
    });
    expect(screen.getByRole('checkbox', { name: 'Also in file text' })).not.toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'Also in file text' }));
    await waitFor(() => expect(screen.getByTestId('search').textContent).toBe('?q=tax'));
  });
});
