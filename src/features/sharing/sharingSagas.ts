/**
 * Side effects of the sharing feature: the share dialog's calls, the invitation page's
 * read and the guest sign-up/sign-in (then the new session's user), the Shared page's lists and
 * breadcrumbs, removing a share, and opening a shared file only after checking that the access
 * still holds (a revoked share says "Your access to this item has ended." instead).
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import {
  all,
  call,
  getContext,
  put,
  select,
  takeEvery,
  takeLatest,
  takeLeading,
} from 'typed-redux-saga';
import {
  SHARED_LANDING,
  SHARING_MESSAGES,
  type CreateShareLinkRequest,
  type InviteResponse,
  type SharedEntityDto,
  type SharedSessionResponse,
  type SharedSigninRequest,
  type SharedSignupRequest,
} from '@common/sharing';
import { ApiError, errorMessage } from '@src/api/client';
import { safely } from '@src/sagas/safely';
import type { RootState } from '@src/store/rootReducer';
import * as sessionApi from '../session/sessionApi';
import { sessionActions } from '../session/sessionSlice';
import * as sharingApi from './sharingApi';
import {
  sharingActions,
  type InvitationProblem,
  type ManageRequest,
  type SharedFileOpen,
  type SharedScope,
  type ShareTarget,
} from './sharingSlice';
import type { Saga } from '@src/sagas/saga';

/** Browser handles of the sharing sagas; tests pass a fake as the saga context. */
export interface SharingEnvironment {
  /** Opens a shared file's address: preview in a new tab, download as a saved file. */
  openFile(this: void, url: string, mode: sharingApi.SharedFileMode): void;
}

/** The saga-context key of {@link SharingEnvironment}. */
export const SHARING_ENVIRONMENT = 'sharingEnvironment';

/** The real browser: a new tab for a preview, a temporary download link for a download. */
export const browserSharingEnvironment: SharingEnvironment = {
  openFile(url, mode) {
    if (mode === 'preview') {
      window.open(url, '_blank', 'noopener');
      return;
    }
    const anchor = document.createElement('a');
    anchor.href = url;
    anchor.download = '';
    anchor.rel = 'noopener';
    document.body.appendChild(anchor);
    anchor.click();
    anchor.remove();
  },
};

/** Reads the item's links (who has access). */
export function* loadLinks(action: PayloadAction<ShareTarget>): Saga {
  const { type, id } = action.payload;
  try {
    const answer = yield* call(sharingApi.fetchLinks, type, id);
    yield* put(sharingActions.linksLoaded({ entityId: id, links: answer.items }));
  } catch (error) {
    yield* put(sharingActions.linksLoadFailed({ entityId: id, message: errorMessage(error) }));
  }
}

/** Creates a link with its invitations. */
export function* createLink(action: PayloadAction<CreateShareLinkRequest>): Saga {
  try {
    const answer = yield* call(sharingApi.createLink, action.payload);
    yield* put(
      sharingActions.linkCreated({
        link: answer.link,
        url: answer.url,
        mailFailed: answer.mail_failed === true,
      }),
    );
  } catch (error) {
    yield* put(sharingActions.createFailed(errorMessage(error)));
  }
}

/** Re-sends or cancels an invitation, removes a share or revokes a link, then re-reads the links. */
export function* manage(action: PayloadAction<ManageRequest>): Saga {
  const request = action.payload;
  try {
    let answer: InviteResponse | null = null;
    switch (request.kind) {
      case 'resend':
        answer = yield* call(sharingApi.invite, request.linkId, [request.email]);
        break;
      case 'cancel':
        yield* call(sharingApi.cancelInvitation, request.linkId, request.invitationId);
        break;
      case 'remove':
        yield* call(sharingApi.removeShare, request.shareId);
        break;
      default:
        yield* call(sharingApi.revokeLink, request.linkId);
    }
    yield* put(
      sharingActions.manageSucceeded({
        request,
        link: answer?.link ?? null,
        mailFailed: answer?.mail_failed === true,
      }),
    );
  } catch (error) {
    yield* put(sharingActions.manageFailed({ request, message: errorMessage(error) }));
  }
  // The states (cancelled, revoked, removed) are the server's: read the list again.
  const target = yield* select((state: RootState) => state.sharing.dialog.target);
  if (target) yield* call(loadLinks, sharingActions.dialogOpened(target));
}

/** What an invitation-page failure is: 404 unknown or revoked, 410 expired, anything else. */
export function invitationProblem(error: unknown): InvitationProblem {
  if (error instanceof ApiError && error.status === 404) return 'not_found';
  if (error instanceof ApiError && error.status === 410) return 'expired';
  return 'other';
}

/** Reads what the invitation page's token is about. */
export function* loadInvitation(action: PayloadAction<{ token: string }>): Saga {
  const { token } = action.payload;
  try {
    const info = yield* call(sharingApi.fetchInvitation, token);
    yield* put(sharingActions.invitationLoaded({ token, info }));
  } catch (error) {
    yield* put(
      sharingActions.invitationLoadFailed({
        token,
        problem: invitationProblem(error),
        message: errorMessage(error),
      }),
    );
  }
}

/**
 * After the server set the session cookie: reads the new session's user into the session slice,
 * then reports the landing location.
 */
function* completeGuestSignIn(answer: SharedSessionResponse): Saga {
  const user = yield* call(sessionApi.fetchCurrentUser);
  yield* put(sessionActions.signedIn(user));
  yield* put(sharingActions.guestSignedIn({ landing: answer.landing }));
}

/**
 * Signs up a guest through the share, then signs in with the same address and password: the
 * sign-up answers the same whether the address already had an account or not and opens no
 * session. When the sign-in is refused, the address had an account with another password: its
 * owner is asked to sign in with it.
 */
export function* guestSignUp(action: PayloadAction<SharedSignupRequest>): Saga {
  const { email, password, shareId, link_password } = action.payload;
  try {
    yield* call(sharingApi.signUp, action.payload);
  } catch (error) {
    yield* put(sharingActions.guestSignInFailed(errorMessage(error)));
    return;
  }
  try {
    const answer = yield* call(sharingApi.signIn, {
      email,
      password,
      inviteId: shareId,
      ...(link_password ? { link_password } : {}),
    });
    yield* call(completeGuestSignIn, answer);
  } catch (error) {
    const message =
      error instanceof ApiError && error.code === 'invalid_credentials'
        ? SHARING_MESSAGES.signUpSignIn
        : errorMessage(error);
    yield* put(sharingActions.guestSignInFailed(message));
  }
}

/** Signs in through the share (an existing guest, or an internal user). */
export function* guestSignIn(action: PayloadAction<SharedSigninRequest>): Saga {
  try {
    const answer = yield* call(sharingApi.signIn, action.payload);
    yield* call(completeGuestSignIn, answer);
  } catch (error) {
    yield* put(sharingActions.guestSignInFailed(errorMessage(error)));
  }
}

/** A signed-in user accepts the share of the invitation page, then goes to the Shared page. */
export function* acceptShare(
  action: PayloadAction<{ linkId: string; token: string; password?: string }>,
): Saga {
  const { linkId, token, password } = action.payload;
  try {
    yield* call(sharingApi.acceptShare, linkId, { token, ...(password ? { password } : {}) });
    yield* put(sharingActions.shareAccepted({ landing: SHARED_LANDING }));
  } catch (error) {
    yield* put(sharingActions.acceptFailed(errorMessage(error)));
  }
}

/** One list of the Shared page as {@link fetchSharedList} answers it. */
export interface SharedList {
  items: SharedEntityDto[];
  /** Internal users' top level only: what they shared; [] otherwise. */
  byMe: SharedEntityDto[];
  allowDownload: boolean;
}

/**
 * Reads one list of the Shared page: a guest's through shared/entities; an internal user's top
 * level through entities/shared (with me and by me), a folder through shared_entities.
 */
export function* fetchSharedList(scope: SharedScope, folderId: string): Saga<SharedList> {
  if (scope === 'internal' && folderId === '') {
    const overview = yield* call(sharingApi.fetchSharedOverview);
    return { items: overview.shared_with_me, byMe: overview.shared_by_me, allowDownload: true };
  }
  const answer = yield* call(
    scope === 'guest' ? sharingApi.fetchSharedEntities : sharingApi.fetchInternalSharedFolder,
    folderId,
  );
  return { items: answer.items, byMe: [], allowDownload: answer.allow_download };
}

/** Loads the open list and, inside a folder, its breadcrumbs. */
export function* loadShared(action: PayloadAction<{ scope: SharedScope; folderId: string }>): Saga {
  const { scope, folderId } = action.payload;
  yield* all([call(loadSharedList, scope, folderId), call(loadSharedCrumbs, folderId)]);
}

function* loadSharedList(scope: SharedScope, folderId: string): Saga {
  try {
    const list = yield* call(fetchSharedList, scope, folderId);
    yield* put(sharingActions.sharedLoaded({ folderId, ...list }));
  } catch (error) {
    if (sharingApi.isAccessEnded(error)) yield* put(sharingActions.accessEnded());
    else yield* put(sharingActions.sharedLoadFailed({ folderId, message: errorMessage(error) }));
  }
}

function* loadSharedCrumbs(folderId: string): Saga {
  if (!folderId) return;
  try {
    const answer = yield* call(sharingApi.fetchSharedBreadcrumbs, folderId);
    yield* put(sharingActions.crumbsLoaded({ folderId, crumbs: answer.items }));
  } catch (error) {
    // The list's own answer says what went wrong; the header keeps the Shared root only.
    console.warn('The shared breadcrumbs could not be read:', errorMessage(error));
  }
}

/**
 * Opens a shared file once the server confirms the access still holds: the list the file is in is
 * read again; a 404 access_ended, or the file missing from it, ends the access on the page.
 */
export function* openSharedFile(action: PayloadAction<SharedFileOpen>): Saga {
  const { fileId, folderId, mode } = action.payload;
  const scope = yield* select((state: RootState) => state.sharing.shared.scope);
  try {
    const list = yield* call(fetchSharedList, scope, folderId);
    if (!list.items.some((item) => item.id === fileId)) {
      yield* put(sharingActions.accessEnded());
      return;
    }
  } catch (error) {
    if (sharingApi.isAccessEnded(error)) {
      yield* put(sharingActions.accessEnded());
      return;
    }
    // Any other failure: let the file's own address answer.
  }
  const given = yield* getContext<SharingEnvironment | undefined>(SHARING_ENVIRONMENT);
  const env = given ?? browserSharingEnvironment;
  yield* call(env.openFile, sharingApi.sharedFileUrl(fileId, mode), mode);
}

/** Shared by me: removes one share (the recipient loses access). */
export function* removeSharedByMe(action: PayloadAction<{ shareId: string }>): Saga {
  const { shareId } = action.payload;
  try {
    yield* call(sharingApi.removeShare, shareId);
    yield* put(sharingActions.shareRemoved({ shareId }));
  } catch (error) {
    yield* put(sharingActions.shareRemovalFailed({ shareId, message: errorMessage(error) }));
  }
}

/** Shared by me: makes a new copyable URL for a link and shows it. */
export function* reissueSharedLink(action: PayloadAction<{ linkId: string; name: string }>): Saga {
  const { linkId, name } = action.payload;
  try {
    const answer = yield* call(sharingApi.reissueLink, linkId);
    yield* put(sharingActions.linkReissued({ linkId, name, url: answer.url }));
  } catch (error) {
    yield* put(sharingActions.linkReissueFailed({ message: errorMessage(error) }));
  }
}

/** The sharing feature saga. */
export function* sharingSaga(): Saga {
  yield* all([
    takeLatest(sharingActions.dialogOpened.type, safely(loadLinks)),
    takeLeading(sharingActions.createRequested.type, safely(createLink)),
    takeEvery(sharingActions.manageRequested.type, safely(manage)),
    takeLatest(sharingActions.invitationOpened.type, safely(loadInvitation)),
    takeLeading(sharingActions.guestSignUpRequested.type, safely(guestSignUp)),
    takeLeading(sharingActions.guestSignInRequested.type, safely(guestSignIn)),
    takeLeading(sharingActions.acceptRequested.type, safely(acceptShare)),
    takeLatest(sharingActions.sharedOpened.type, safely(loadShared)),
    takeEvery(sharingActions.fileOpenRequested.type, safely(openSharedFile)),
    takeEvery(sharingActions.shareRemovalRequested.type, safely(removeSharedByMe)),
    takeLeading(sharingActions.linkReissueRequested.type, safely(reissueSharedLink)),
  ]);
}

/**
 * Keeps secrets out of the developer tools' action log: the link password of a new share and the
 * account and link passwords of a guest's sign-up or sign-in. Other actions are returned unchanged.
 */
export function sanitizeSharingAction<A extends { type: string }>(action: A): A {
  const hidden = '••••••';
  if (sharingActions.createRequested.match(action)) {
    return action.payload.password
      ? { ...action, payload: { ...action.payload, password: hidden } }
      : action;
  }
  if (sharingActions.acceptRequested.match(action)) {
    return {
      ...action,
      payload: {
        ...action.payload,
        token: hidden,
        ...(action.payload.password ? { password: hidden } : {}),
      },
    };
  }
  if (
    sharingActions.guestSignUpRequested.match(action) ||
    sharingActions.guestSignInRequested.match(action)
  ) {
    return {
      ...action,
      payload: {
        ...action.payload,
        password: hidden,
        ...(action.payload.link_password ? { link_password: hidden } : {}),
      },
    };
  }
  return action;
}
