import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { SHARING_MESSAGES } from '@common/sharing';
import { ApiError } from '@src/api/client';
import { isAccessEnded } from '@src/features/sharing/sharingApi';
import { invitationProblem, type SharingEnvironment } from '@src/features/sharing/sharingSagas';
import { selectIsGuest } from '@src/features/sharing/sharingSelectors';
import {
  initialSharingState,
  sharingActions,
  sharingReducer,
} from '@src/features/sharing/sharingSlice';
import { sessionActions } from '@src/features/session/sessionSlice';
import { makeStore, type AppStore } from '@src/store/store';
import { callsTo, makeUser, signedInState, stubRoutes } from '../../testUtils';
import { makeGuest, makeLink, makeShared } from './sharingFixtures';
import { allowConsoleError } from '../../consoleErrors';

/** Waits until `check` passes (saga steps settle through several promise turns). */
async function eventually(check: () => void, tries = 50): Promise<void> {
  for (let i = 0; ; i += 1) {
    try {
      check();
      return;
    } catch (error) {
      if (i >= tries) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

describe('sharing slice', () => {
  it('ignores links of an item the dialog no longer shows', () => {
    let state = sharingReducer(
      initialSharingState,
      sharingActions.dialogOpened({ type: 'folder', id: 'f2', name: 'Other' }),
    );
    state = sharingReducer(
      state,
      sharingActions.linksLoaded({ entityId: 'f1', links: [makeLink()] }),
    );
    expect(state.dialog.links).toEqual([]);
    expect(state.dialog.list.status).toBe('loading');
  });

  it('keeps a pending id per change and forgets the dialog when closed', () => {
    let state = sharingReducer(
      initialSharingState,
      sharingActions.dialogOpened({ type: 'folder', id: 'f1', name: 'Clients' }),
    );
    const request = { kind: 'cancel', linkId: 'link1', invitationId: 'inv1' } as const;
    state = sharingReducer(state, sharingActions.manageRequested(request));
    expect(state.dialog.pending).toEqual(['inv1']);
    state = sharingReducer(state, sharingActions.manageFailed({ request, message: 'Nope.' }));
    expect(state.dialog.pending).toEqual([]);
    expect(state.dialog.actionError).toBe('Nope.');
    state = sharingReducer(state, sharingActions.dialogClosed());
    expect(state.dialog.target).toBeNull();
  });

  it('is emptied when the session ends', () => {
    let state = sharingReducer(
      initialSharingState,
      sharingActions.sharedOpened({ scope: 'guest', folderId: '' }),
    );
    state = sharingReducer(state, sessionActions.expired());
    expect(state).toEqual(initialSharingState);
  });
});

describe('guest rule and error helpers', () => {
  it('knows a guest by the role in the current firm', () => {
    const store = makeStore(signedInState(makeGuest()));
    expect(selectIsGuest(store.getState())).toBe(true);
    store.sagaTask.cancel();
    const internal = makeStore(signedInState(makeUser()));
    expect(selectIsGuest(internal.getState())).toBe(false);
    internal.sagaTask.cancel();
  });

  it('tells the invitation problems and the access-ended answer apart', () => {
    expect(invitationProblem(new ApiError(404, 'not_found', 'x'))).toBe('not_found');
    expect(invitationProblem(new ApiError(410, 'gone', 'x'))).toBe('expired');
    expect(invitationProblem(new ApiError(500, 'internal', 'x'))).toBe('other');
    expect(isAccessEnded(new ApiError(404, 'access_ended', 'x'))).toBe(true);
    expect(isAccessEnded(new ApiError(404, 'not_found', 'x'))).toBe(false);
  });
});

describe('sharing sagas', () => {
  let store: AppStore;
  let openFile: jest.Mock<SharingEnvironment['openFile']>;

  beforeEach(() => {
    openFile = jest.fn<SharingEnvironment['openFile']>();
  });
  afterEach(() => {
    store.sagaTask.cancel();
  });

  function start(user = makeGuest()) {
    store = makeStore(signedInState(user), { sagaContext: { sharingEnvironment: { openFile } } });
  }

  it('ends the access when the file is no longer in its list', async () => {
    stubRoutes({
      'GET /api/rest/shared/entities': {
        body: { items: [makeShared({ id: 'x' })], allow_download: true },
      },
    });
    start();
    store.dispatch(sharingActions.sharedOpened({ scope: 'guest', folderId: '' }));
    await eventually(() => expect(store.getState().sharing.shared.list.status).toBe('succeeded'));
    store.dispatch(
      sharingActions.fileOpenRequested({ fileId: 'file1', folderId: '', mode: 'download' }),
    );
    await eventually(() => expect(store.getState().sharing.shared.accessEnded).toBe(true));
    expect(openFile).not.toHaveBeenCalled();
  });

  it('reads an internal user’s top level from entities/shared', async () => {
    const { calls } = stubRoutes({
      'GET /api/rest/entities/shared': {
        body: { shared_with_me: [makeShared()], shared_by_me: [makeShared({ share_id: 's2' })] },
      },
    });
    start(makeUser());
    store.dispatch(sharingActions.sharedOpened({ scope: 'internal', folderId: '' }));
    await eventually(() => expect(store.getState().sharing.shared.list.status).toBe('succeeded'));
    expect(store.getState().sharing.shared.items).toHaveLength(1);
    expect(store.getState().sharing.shared.byMe[0]!.share_id).toBe('s2');
    expect(callsTo(calls, 'GET /api/rest/shared/entities')).toHaveLength(0);
  });

  it('reports a refused sign-up with the server message and stays signed out', async () => {
    allowConsoleError(/^POST \/api\/rest\/shared\/signup\S* answered 400/);
    stubRoutes({
      'POST /api/rest/shared/signup': {
        status: 400,
        body: {
          message: 'This invitation was sent to another e-mail address.',
          code: 'bad_request',
        },
      },
    });
    store = makeStore();
    store.dispatch(
      sharingActions.guestSignUpRequested({
        first_name: 'A',
        last_name: 'B',
        email: 'x@example.com',
        password: 'long enough password',
        shareId: 'tok',
      }),
    );
    await eventually(() =>
      expect(store.getState().sharing.invitation.submit).toEqual({
        status: 'failed',
        error: 'This invitation was sent to another e-mail address.',
      }),
    );
    expect(store.getState().session.user).toBeNull();
  });

  it('signs in after the sign-up; a refused sign-in asks the owner of the address for its password', async () => {
    // The refused sign-in is expected: the API client logs it.
    allowConsoleError(/^POST \/api\/rest\/shared\/signin\S* answered 401/);
    const { calls } = stubRoutes({
      'POST /api/rest/shared/signup': {
        status: 202,
        body: { next: 'sign_in', message: SHARING_MESSAGES.signUpDone },
      },
      'POST /api/rest/shared/signin': {
        status: 401,
        body: { message: 'The username or password is incorrect.', code: 'invalid_credentials' },
      },
    });
    store = makeStore();
    store.dispatch(
      sharingActions.guestSignUpRequested({
        first_name: 'A',
        last_name: 'B',
        email: 'x@example.com',
        password: 'long enough password',
        shareId: 'tok',
        link_password: 'link secret',
      }),
    );
    await eventually(() =>
      expect(store.getState().sharing.invitation.submit).toEqual({
        status: 'failed',
        error: SHARING_MESSAGES.signUpSignIn,
      }),
    );
    expect(callsTo(calls, 'POST /api/rest/shared/signin')[0]!.body).toEqual({
      email: 'x@example.com',
      password: 'long enough password',
      inviteId: 'tok',
      link_password: 'link secret',
    });
    expect(store.getState().session.user).toBeNull();
  });
});
