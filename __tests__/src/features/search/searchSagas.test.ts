import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { waitFor } from '@testing-library/react';
import { AUTOCOMPLETE_DEBOUNCE_MS } from '@common/search';
import { searchActions } from '@src/features/search/searchSlice';
import type { AppStore } from '@src/store/store';
import {
  callsTo,
  makeRecordingStore,
  signedInState,
  stubRoutes,
  type StubReply,
  type StubRoutes,
} from '../../fixtures';
import { fileHit, fileSuggestion, folderSuggestion } from './searchFixtures';
import { allowConsoleError } from '../../consoleErrors';

let store: AppStore | undefined;

function start(routes: StubRoutes) {
  const stub = stubRoutes(routes);
  const recording = makeRecordingStore(signedInState());
  store = recording.store;
  return { ...stub, ...recording, store: recording.store };
}

afterEach(() => {
  store?.sagaTask.cancel();
  store = undefined;
  jest.restoreAllMocks();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const AUTOCOMPLETE = 'GET /api/rest/entities/search/autocomplete';
const queryOf = (url: string) => new URL(url, 'http://localhost').searchParams.get('query');

describe('autocomplete saga', () => {
  it('typing fast sends one debounced query, for the text the user stopped at', async () => {
    const { calls, store } = start({
      [AUTOCOMPLETE]: (call) => ({
        body: {
          query: queryOf(call.url),
          items: [fileSuggestion('a', `${queryOf(call.url)}.pdf`)],
        },
      }),
    });
    for (const text of ['t', 'ta', 'tax', 'tax ', 'tax 2', 'tax 20']) {
      store.dispatch(searchActions.queryChanged(text));
    }
    // Within the pause nothing is sent.
    await sleep(AUTOCOMPLETE_DEBOUNCE_MS / 2);
    expect(callsTo(calls, AUTOCOMPLETE)).toHaveLength(0);
    expect(store.getState().search.searching).toBe(true);
    await waitFor(() => expect(store.getState().search.autocomplete.status).toBe('succeeded'));
    expect(callsTo(calls, AUTOCOMPLETE).map((call) => queryOf(call.url))).toEqual(['tax 20']);
    expect(store.getState().search.autocomplete.items.map((item) => item.name)).toEqual([
      'tax 20.pdf',
    ]);
    expect(store.getState().search.searching).toBe(false);
  });

  it('shows only the latest answer when an older one arrives after it', async () => {
    const pending = new Map<string, (reply: StubReply) => void>();
    const { calls, store, types } = start({
      [AUTOCOMPLETE]: (call) =>
        new Promise<StubReply>((resolve) => pending.set(queryOf(call.url)!, resolve)),
    });
    store.dispatch(searchActions.queryChanged('tax'));
    await waitFor(() => expect(pending.has('tax')).toBe(true));
    // The user types on while the first answer is on its way.
    store.dispatch(searchActions.queryChanged('taxes'));
    await waitFor(() => expect(pending.has('taxes')).toBe(true));
    pending.get('taxes')!({ body: { query: 'taxes', items: [folderSuggestion('n', 'Taxes')] } });
    await waitFor(() => expect(store.getState().search.autocomplete.query).toBe('taxes'));
    // The slow answer to the older query comes last: it is dropped.
    pending.get('tax')!({ body: { query: 'tax', items: [fileSuggestion('o', 'tax.pdf')] } });
    await sleep(50);
    expect(store.getState().search.autocomplete.items.map((item) => item.name)).toEqual(['Taxes']);
    expect(callsTo(calls, AUTOCOMPLETE)).toHaveLength(2);
    const loaded = types().filter((type) => type === searchActions.autocompleteLoaded.type);
    expect(loaded).toHaveLength(1);
  });

  it('sends nothing for a query shorter than the minimum and clears the suggestions', async () => {
    const { calls, store } = start({
      [AUTOCOMPLETE]: { body: { query: 'ab', items: [fileSuggestion('a', 'ab.pdf')] } },
    });
    store.dispatch(searchActions.queryChanged('ab'));
    await waitFor(() => expect(store.getState().search.autocomplete.items).toHaveLength(1));
    store.dispatch(searchActions.queryChanged('a'));
    await sleep(AUTOCOMPLETE_DEBOUNCE_MS + 50);
    expect(callsTo(calls, AUTOCOMPLETE)).toHaveLength(1);
    expect(store.getState().search.autocomplete.items).toEqual([]);
    expect(store.getState().search.searching).toBe(false);
  });

  it('reports a failed autocomplete with the server message', async () => {
    allowConsoleError(/^GET \/api\/rest\/entities\/search\/autocomplete\S* answered 500/);
    const { store } = start({
      [AUTOCOMPLETE]: { status: 500, body: { message: 'Search is down.', code: 'x' } },
    });
    store.dispatch(searchActions.queryChanged('report'));
    await waitFor(() => expect(store.getState().search.autocomplete.status).toBe('failed'));
    expect(store.getState().search.autocomplete.error).toBe('Search is down.');
  });
});

describe('results saga', () => {
  it('searches with the term and filters, then reads the next page at the end', async () => {
    const hits = Array.from({ length: 3 }, (_, i) => fileHit(`h${i}`, `Report ${i}.pdf`));
    const { calls, store } = start({
      'POST /api/rest/entities/search': (call) =>
        call.url.includes('page=2')
          ? { body: { items: [hits[2]], page: 2, page_size: 2, total: 3 } }
          : { body: { items: hits.slice(0, 2), page: 1, page_size: 2, total: 3 } },
    });
    store.dispatch(
      searchActions.resultsRequested({
        term: 'report',
        filterItems: [
          { kind: 'type', category: 'PDF' },
          { kind: 'index', fieldId: 'tax', value: '2023' },
          { kind: 'favorites' },
        ],
      }),
    );
    await waitFor(() => expect(store.getState().search.results.status).toBe('succeeded'));
    expect(calls[0]!.url).toBe('/api/rest/entities/search?page=1&page_size=50');
    expect(calls[0]!.body).toEqual({
      filters: {
        query: 'report',
        types: ['PDF'],
        index_values: [{ index_field_id: 'tax', value: '2023' }],
        favorites_only: true,
      },
    });
    store.dispatch(searchActions.resultsMoreRequested());
    await waitFor(() => expect(store.getState().search.results.items).toHaveLength(3));
    expect(calls[1]!.url).toContain('page=2');
  });

  it('lists by filters alone through entities/filtered', async () => {
    const { calls, store } = start({
      'POST /api/rest/entities/filtered': {
        body: { items: [fileHit('a', 'a.pdf')], page: 1, page_size: 50, total: 1 },
      },
    });
    store.dispatch(
      searchActions.resultsRequested({ term: '', filterItems: [{ kind: 'archived' }] }),
    );
    await waitFor(() => expect(store.getState().search.results.status).toBe('succeeded'));
    expect(callsTo(calls, 'POST /api/rest/entities/filtered')[0]!.body).toEqual({
      filters: { archived: true },
    });
  });
});
