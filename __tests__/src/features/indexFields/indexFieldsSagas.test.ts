import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { waitFor } from '@testing-library/react';
import { indexFieldsActions } from '@src/features/indexFields/indexFieldsSlice';
import { undoEvents } from '@src/sagas/undoable';
import type { AppStore } from '@src/store/store';
import {
  callsTo,
  makeRecordingStore,
  makePage,
  makeFile,
  signedInState,
  stubRoutes,
  type StubRoutes,
} from '../../fixtures';
import { DOC_TYPE, TAX_YEAR, makeApplied } from './indexFieldsFixtures';
import { allowConsoleError, UNSTUBBED_ROUTE } from '../../consoleErrors';

let store: AppStore | undefined;

function start(routes: StubRoutes) {
  const stub = stubRoutes({
    'GET /api/rest/index_fields': { body: [TAX_YEAR, DOC_TYPE] },
    ...routes,
  });
  const recording = makeRecordingStore(signedInState());
  store = recording.store;
  return { ...stub, ...recording, store: recording.store };
}

async function withFields(store: AppStore) {
  store.dispatch(indexFieldsActions.fieldsRequested());
  await waitFor(() => expect(store.getState().indexFields.fields.status).toBe('succeeded'));
}

afterEach(() => {
  store?.sagaTask.cancel();
  store = undefined;
  jest.restoreAllMocks();
});

describe('index field sagas', () => {
  it('deletes a field with an Undo toast; Undo calls undo-delete and the field is back', async () => {
    const { calls, store } = start({
      'DELETE /api/rest/index_fields/tax': {
        body: { ...TAX_YEAR, deleted_at: '2024-01-02T00:00:00.000Z' },
      },
      'POST /api/rest/index_fields/tax/undo-delete': { body: TAX_YEAR },
    });
    await withFields(store);
    store.dispatch(indexFieldsActions.fieldDeleteRequested({ fieldId: 'tax' }));
    await waitFor(() => expect(store.getState().notifications.toasts).toHaveLength(1));
    const toast = store.getState().notifications.toasts[0]!;
    expect(toast).toMatchObject({ title: 'Deleted', body: 'Index field “Tax year” deleted.' });
    expect(store.getState().indexFields.fields.items.map((field) => field.id)).toEqual(['doctype']);
    store.dispatch(undoEvents.undoRequested(toast.undo!.payload as { token: string }));
    await waitFor(() =>
      expect(store.getState().indexFields.fields.items.map((field) => field.id)).toEqual([
        'tax',
        'doctype',
      ]),
    );
    expect(callsTo(calls, 'POST /api/rest/index_fields/tax/undo-delete')).toHaveLength(1);
  });

  it('creates a list field with its values in order', async () => {
    const { calls, store } = start({ 'POST /api/rest/index_fields': { body: DOC_TYPE } });
    store.dispatch(
      indexFieldsActions.fieldSaveRequested({
        fieldId: null,
        name: 'Document type',
        type: 'list',
        description: '',
        values: [{ value: 'Invoice' }, { value: 'Statement' }, { value: 'Contract' }],
      }),
    );
    await waitFor(() => expect(store.getState().indexFields.fields.items).toHaveLength(1));
    expect(callsTo(calls, 'POST /api/rest/index_fields')[0]!.body).toEqual({
      name: 'Document type',
      type: 'list',
      description: '',
      values: ['Invoice', 'Statement', 'Contract'],
    });
  });
});

describe('apply sagas', () => {
  it('refuses a value of the wrong type without calling the server', async () => {
    allowConsoleError(UNSTUBBED_ROUTE);
    const { calls, store } = start({});
    await withFields(store);
    store.dispatch(indexFieldsActions.appliedRequested({ entityId: 'file1' }));
    store.dispatch(
      indexFieldsActions.formValueUpdated({ form: 'panel', indexFieldId: 'tax', value: 'soon' }),
    );
    store.dispatch(indexFieldsActions.applyRequested({ entityId: 'file1' }));
    await waitFor(() => expect(store.getState().indexFields.apply.status).toBe('failed'));
    expect(store.getState().indexFields.apply.error).toBe(
      'Tax year: Enter a number, for example 2024 or -12.5.',
    );
    expect(callsTo(calls, 'POST /api/rest/applied_indexes')).toHaveLength(0);
  });

  it('applies the form (one value per field, normalised) and clears it', async () => {
    const applied = [
      makeApplied(),
      makeApplied({
        id: 'a2',
        index_field_id: 'doctype',
        index_field_name: 'Document type',
        value: 'Invoice',
      }),
    ];
    const { calls, store } = start({
      'GET /api/rest/applied_indexes': { body: [] },
      'POST /api/rest/applied_indexes': { status: 201, body: { items: applied } },
    });
    await withFields(store);
    store.dispatch(indexFieldsActions.appliedRequested({ entityId: 'file1' }));
    await waitFor(() => expect(store.getState().indexFields.applied.status).toBe('succeeded'));
    store.dispatch(
      indexFieldsActions.formValueUpdated({
        form: 'panel',
        indexFieldId: 'doctype',
        value: 'invoice',
      }),
    );
    store.dispatch(
      indexFieldsActions.formValueUpdated({ form: 'panel', indexFieldId: 'tax', value: '02023' }),
    );
    store.dispatch(indexFieldsActions.applyRequested({ entityId: 'file1' }));
    await waitFor(() =>
      expect(store.getState().indexFields.apply).toEqual({ status: 'succeeded', error: null }),
    );
    expect(store.getState().indexFields.applied.items).toHaveLength(2);
    expect(callsTo(calls, 'POST /api/rest/applied_indexes')[0]!.body).toEqual({
      entity_id: 'file1',
      indexes: [
        { indexFieldId: 'tax', value: '2023' },
        { indexFieldId: 'doctype', value: 'Invoice' },
      ],
    });
    expect(store.getState().indexFields.forms.panel).toEqual({});
  });

  it('applies the bulk form to every selected file in one call', async () => {
    const { calls, store } = start({
      'POST /api/rest/applied_indexes': { status: 201, body: { items: [] } },
    });
    await withFields(store);
    store.dispatch(
      indexFieldsActions.formValueUpdated({ form: 'bulk', indexFieldId: 'tax', value: '2022' }),
    );
    store.dispatch(indexFieldsActions.bulkApplyRequested({ fileIds: ['a', 'b', 'c'] }));
    await waitFor(() => expect(store.getState().indexFields.bulk.status).toBe('succeeded'));
    const posts = callsTo(calls, 'POST /api/rest/applied_indexes');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body).toEqual({
      entity_ids: ['a', 'b', 'c'],
      indexes: [{ indexFieldId: 'tax', value: '2022' }],
    });
    expect(store.getState().notifications.messages.map((m) => m.text)).toContain(
      'Index values applied to 3 files.',
    );
  });

  it('reads a page of files missing values and ignores an answer for an older query', async () => {
    const { calls, store } = start({
      'POST /api/rest/entities/search/missing-indexes': (call) => ({
        body: makePage([makeFile({ id: `m-${call.url}` })], 2, 51, 50),
      }),
    });
    store.dispatch(indexFieldsActions.missingRequested({ fieldIds: ['tax'], page: 2 }));
    await waitFor(() => expect(store.getState().indexFields.missing.status).toBe('succeeded'));
    expect(calls[0]!.url).toContain('page=2');
    expect(calls[0]!.body).toEqual({ index_field_ids: ['tax'] });
    expect(store.getState().indexFields.missing.total).toBe(51);
    const before = store.getState().indexFields.missing;
    store.dispatch(
      indexFieldsActions.missingLoaded({ fieldIds: ['other'], page: 2, total: 1, items: [] }),
    );
    expect(store.getState().indexFields.missing).toBe(before);
  });
});
