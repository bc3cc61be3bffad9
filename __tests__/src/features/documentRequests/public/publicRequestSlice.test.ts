import { describe, expect, it } from '@jest/globals';
import { sanitizePublicRequestAction } from '@src/features/documentRequests/public/publicRequestSagas';
import { selectActiveRequestUploads } from '@src/features/documentRequests/public/publicRequestSelectors';
import {
  initialPublicRequestState,
  publicRequestActions as actions,
  publicRequestReducer as reducer,
} from '@src/features/documentRequests/public/publicRequestSlice';
import type { RootState } from '@src/store/rootReducer';
import { makePublicRequest } from './publicRequestFixtures';

describe('publicRequest slice', () => {
  it('keeps the password out of the dev-tools log', () => {
    const action = actions.unlockRequested({ token: 't', password: 'secret' });
    expect(sanitizePublicRequestAction(action).payload.password).not.toBe('secret');
    expect(action.payload.password).toBe('secret');
  });

  it('walks an upload from added to recorded and ignores an answer of another link', () => {
    let state = reducer(initialPublicRequestState, actions.pageOpened({ token: 't' }));
    state = reducer(state, actions.pageLoaded({ token: 'other', request: makePublicRequest() }));
    expect(state.request).toBeNull();
    state = reducer(state, actions.pageLoaded({ token: 't', request: makePublicRequest() }));
    state = reducer(
      state,
      actions.filesAdded({
        itemId: 'item-1',
        files: [{ id: 'up-1', name: 'a.pdf', size: 10 }],
        refused: [{ id: 'refused-1', name: 'b.exe', size: 1, reason: 'No.' }],
      }),
    );
    const active = selectActiveRequestUploads({ publicRequest: state } as RootState);
    expect(active).toEqual({ namesByItem: { 'item-1': ['a.pdf'] }, count: 1 });
    state = reducer(state, actions.uploadProgressed({ id: 'up-1', bytesUploaded: 4 }));
    expect(state.uploads[0]).toMatchObject({ status: 'uploading', bytesUploaded: 4 });
    state = reducer(state, actions.uploadStored({ id: 'up-1' }));
    expect(state.uploads[0]?.status).toBe('recording');
    const refreshed = makePublicRequest({ title: 'Refreshed' });
    state = reducer(state, actions.uploadRecorded({ id: 'up-1', request: refreshed }));
    expect(state.request?.title).toBe('Refreshed');
    expect(state.uploads.map((row) => [row.id, row.status])).toEqual([['refused-1', 'invalid']]);
  });
});
