/**
 * Sharing slice: three parts, each driven by events that the sharing sagas answer.
 * - `dialog`: the share dialog of the side panel (create a link with invitations, who has access,
 *   re-send or cancel an invitation, remove access, revoke a link). The copyable link is answered
 *   only at creation and kept while the dialog stays open.
 * - `invitation`: the public invitation page (/sharing/invitation/:invitationId): what was shared
 *   and by whom, then the guest sign-up or sign-in.
 * - `shared`: the Shared page (/shared for internal users, /sharing/shared for guests) at its top
 *   level or inside a shared folder, with its breadcrumbs and the "access has ended" state.
 * Passwords travel only in the request events, never in the state.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type {
  CreateShareLinkRequest,
  InvitationInfoDto,
  ShareEntityType,
  SharedBreadcrumbDto,
  SharedEntityDto,
  SharedSigninRequest,
  SharedSignupRequest,
  ShareLinkDto,
} from '@common/sharing';
import type { Status } from '@src/store/status';
import { sessionActions } from '../session/sessionSlice';
import type { SharedFileMode } from './sharingApi';

/** Status and error of one request. */
export interface RequestState {
  status: Status;
  error: string | null;
}

/** The item a share dialog is about. */
export interface ShareTarget {
  type: ShareEntityType;
  id: string;
  name: string;
}

/** State of the share dialog. */
export interface ShareDialogState {
  /** The item being shared; null while the dialog is closed. */
  target: ShareTarget | null;
  /** The item's links with their invitations and shares (who has access). */
  links: ShareLinkDto[];
  /** Loading the links. */
  list: RequestState;
  /** Creating a link. */
  create: RequestState;
  /** The copyable link of the link just created (answered only once), or null. */
  createdUrl: string | null;
  /** True when the last create or invite could not send an e-mail (the invitations were kept). */
  mailFailed: boolean;
  /** Ids (link, invitation or share) whose re-send, cancel, removal or revoke is in flight. */
  pending: string[];
  /** The message of the last failed re-send, cancel, removal or revoke. */
  actionError: string | null;
}

/** Why the invitation page could not load: the token is unknown or revoked, or the link expired. */
export type InvitationProblem = 'not_found' | 'expired' | 'other';

/** State of the invitation page. */
export interface InvitationState {
  /** The invitation or link token of the page's address. */
  token: string;
  info: InvitationInfoDto | null;
  load: RequestState;
  /** What kind of failure `load.error` is. */
  problem: InvitationProblem | null;
  /** The sign-up or sign-in request. */
  submit: RequestState;
  /** A signed-in user's Accept. */
  accept: RequestState;
  /** Where to go once signed in (the server's answer), or null. */
  landing: string | null;
}

/** Who is looking at the Shared page: a guest, or an internal user of the firm. */
export type SharedScope = 'guest' | 'internal';

/** State of the Shared page. */
export interface SharedState {
  scope: SharedScope;
  /** The open shared folder, or '' for the top level. */
  folderId: string;
  /** Top level: what was shared with the user; inside a folder: its contents. */
  items: SharedEntityDto[];
  /** Internal users' top level: what they shared with others. */
  byMe: SharedEntityDto[];
  /** Whether the listed folder's share allows download. */
  allowDownload: boolean;
  list: RequestState;
  /** The chain from the shared root down to the open folder. */
  crumbs: SharedBreadcrumbDto[];
  /** True once the server said the access has ended (revoked link, removed share). */
  accessEnded: boolean;
  /** Share ids whose removal (Shared by me) is in flight. */
  removing: string[];
  /** The message of the last failed removal or copy, or null. */
  actionError: string | null;
  /** Shared by me: the link whose new URL is being made, or null. */
  reissuing: string | null;
  /** Shared by me: the new URL of a link copied again (shown until closed), or null. */
  reissued: { linkId: string; name: string; url: string } | null;
}

/** The sharing slice's state. */
export interface SharingState {
  dialog: ShareDialogState;
  invitation: InvitationState;
  shared: SharedState;
}

const idle: RequestState = { status: 'idle', error: null };
const loading: RequestState = { status: 'loading', error: null };
const succeeded: RequestState = { status: 'succeeded', error: null };

/** The dialog while closed. */
const initialDialogState: ShareDialogState = {
  target: null,
  links: [],
  list: idle,
  create: idle,
  createdUrl: null,
  mailFailed: false,
  pending: [],
  actionError: null,
};

/** The invitation page before it opened. */
const initialInvitationState: InvitationState = {
  token: '',
  info: null,
  load: idle,
  problem: null,
  submit: idle,
  accept: idle,
  landing: null,
};

/** The Shared page before it opened. */
const initialSharedState: SharedState = {
  scope: 'guest',
  folderId: '',
  items: [],
  byMe: [],
  allowDownload: true,
  list: idle,
  crumbs: [],
  accessEnded: false,
  removing: [],
  actionError: null,
  reissuing: null,
  reissued: null,
};

/** The state before anything happened. */
export const initialSharingState: SharingState = {
  dialog: initialDialogState,
  invitation: initialInvitationState,
  shared: initialSharedState,
};

/** A re-send, cancel, removal or revoke of the share dialog. */
export type ManageRequest =
  | { kind: 'resend'; linkId: string; invitationId: string; email: string }
  | { kind: 'cancel'; linkId: string; invitationId: string }
  | { kind: 'remove'; linkId: string; shareId: string }
  | { kind: 'revoke'; linkId: string };

/** The id a manage request is pending under (the invitation, share or link it acts on). */
function manageId(request: ManageRequest): string {
  switch (request.kind) {
    case 'resend':
    case 'cancel':
      return request.invitationId;
    case 'remove':
      return request.shareId;
    default:
      return request.linkId;
  }
}

/** A page of the Shared page as the saga reports it. */
export interface SharedLoaded {
  folderId: string;
  items: SharedEntityDto[];
  byMe: SharedEntityDto[];
  allowDownload: boolean;
}

/** Opening a shared file: which file, where it is listed, and how. */
export interface SharedFileOpen {
  fileId: string;
  /** The folder the file is listed in ('' at the top level). */
  folderId: string;
  mode: SharedFileMode;
}

function without(ids: string[], id: string): string[] {
  return ids.filter((candidate) => candidate !== id);
}

const sharingSlice = createSlice({
  name: 'sharing',
  initialState: initialSharingState,
  reducers: {
    /** The Share button of the side panel was pressed: open the dialog and load who has access. */
    dialogOpened(state, action: PayloadAction<ShareTarget>) {
      state.dialog = { ...initialDialogState, target: action.payload, list: loading };
    },
    /** The dialog was closed (the copyable link is forgotten). */
    dialogClosed(state) {
      state.dialog = initialDialogState;
    },
    /** The item's links arrived. */
    linksLoaded(state, action: PayloadAction<{ entityId: string; links: ShareLinkDto[] }>) {
      if (state.dialog.target?.id !== action.payload.entityId) return;
      state.dialog.links = action.payload.links;
      state.dialog.list = succeeded;
    },
    /** The item's links could not be read. */
    linksLoadFailed(state, action: PayloadAction<{ entityId: string; message: string }>) {
      if (state.dialog.target?.id !== action.payload.entityId) return;
      state.dialog.list = { status: 'failed', error: action.payload.message };
    },
    /** The share form was submitted. The password, if any, only travels in this event. */
    createRequested(state, _action: PayloadAction<CreateShareLinkRequest>) {
      state.dialog.create = loading;
      state.dialog.mailFailed = false;
      state.dialog.actionError = null;
    },
    /** The link was created: its copyable address is shown and it joins the list. */
    linkCreated(
      state,
      action: PayloadAction<{ link: ShareLinkDto; url: string; mailFailed: boolean }>,
    ) {
      const { link, url, mailFailed } = action.payload;
      if (state.dialog.target?.id !== link.entity_id) return;
      state.dialog.create = succeeded;
      state.dialog.createdUrl = url;
      state.dialog.mailFailed = mailFailed;
      state.dialog.links = [link, ...state.dialog.links.filter((item) => item.id !== link.id)];
    },
    /** The link could not be created; payload is the server's message. */
    createFailed(state, action: PayloadAction<string>) {
      state.dialog.create = { status: 'failed', error: action.payload };
    },
    /** "Share again": back to the form for another link. */
    createReset(state) {
      state.dialog.create = idle;
      state.dialog.createdUrl = null;
      state.dialog.mailFailed = false;
    },
    /** Re-send, Cancel invitation, Remove access or Revoke link was pressed. */
    manageRequested(state, action: PayloadAction<ManageRequest>) {
      const id = manageId(action.payload);
      if (!state.dialog.pending.includes(id)) state.dialog.pending.push(id);
      state.dialog.actionError = null;
    },
    /** The change was made; `link` is the link as it is now (null when the server sent none). */
    manageSucceeded(
      state,
      action: PayloadAction<{
        request: ManageRequest;
        link: ShareLinkDto | null;
        mailFailed: boolean;
      }>,
    ) {
      const { request, link, mailFailed } = action.payload;
      state.dialog.pending = without(state.dialog.pending, manageId(request));
      state.dialog.mailFailed = mailFailed;
      if (link) {
        state.dialog.links = state.dialog.links.map((item) => (item.id === link.id ? link : item));
      }
    },
    /** The change failed; payload has the server's message. */
    manageFailed(state, action: PayloadAction<{ request: ManageRequest; message: string }>) {
      state.dialog.pending = without(state.dialog.pending, manageId(action.payload.request));
      state.dialog.actionError = action.payload.message;
    },

    /** The invitation page opened with the token of its address. */
    invitationOpened(state, action: PayloadAction<{ token: string }>) {
      state.invitation = { ...initialInvitationState, token: action.payload.token, load: loading };
    },
    /** What the invitation is about arrived. */
    invitationLoaded(state, action: PayloadAction<{ token: string; info: InvitationInfoDto }>) {
      if (state.invitation.token !== action.payload.token) return;
      state.invitation.info = action.payload.info;
      state.invitation.load = succeeded;
    },
    /** The invitation could not be read (unknown, revoked, expired, or the server failed). */
    invitationLoadFailed(
      state,
      action: PayloadAction<{ token: string; problem: InvitationProblem; message: string }>,
    ) {
      if (state.invitation.token !== action.payload.token) return;
      state.invitation.load = { status: 'failed', error: action.payload.message };
      state.invitation.problem = action.payload.problem;
    },
    /** The guest sign-up form was submitted (the passwords only travel in this event). */
    guestSignUpRequested(state, _action: PayloadAction<SharedSignupRequest>) {
      state.invitation.submit = loading;
    },
    /** The share sign-in form was submitted (the passwords only travel in this event). */
    guestSignInRequested(state, _action: PayloadAction<SharedSigninRequest>) {
      state.invitation.submit = loading;
    },
    /**
     * A signed-in user pressed Accept on the invitation page (the token and the link's password
     * only travel in this event).
     */
    acceptRequested(
      state,
      _action: PayloadAction<{ linkId: string; token: string; password?: string }>,
    ) {
      state.invitation.accept = loading;
    },
    /** The share was accepted: go to the Shared page. */
    shareAccepted(state, action: PayloadAction<{ landing: string }>) {
      state.invitation.accept = succeeded;
      state.invitation.landing = action.payload.landing;
    },
    /** The Accept was refused; payload is the server's message. */
    acceptFailed(state, action: PayloadAction<string>) {
      state.invitation.accept = { status: 'failed', error: action.payload };
    },
    /** Signed up or in through the share: go to the landing location. */
    guestSignedIn(state, action: PayloadAction<{ landing: string }>) {
      state.invitation.submit = succeeded;
      state.invitation.landing = action.payload.landing;
    },
    /** The sign-up or sign-in was refused; payload is the server's message. */
    guestSignInFailed(state, action: PayloadAction<string>) {
      state.invitation.submit = { status: 'failed', error: action.payload };
    },

    /** The Shared page opened at its top level (folderId '') or inside a shared folder. */
    sharedOpened(state, action: PayloadAction<{ scope: SharedScope; folderId: string }>) {
      const { scope, folderId } = action.payload;
      const sameFolder = state.shared.scope === scope && state.shared.folderId === folderId;
      state.shared = {
        ...initialSharedState,
        scope,
        folderId,
        // The chain stays while the same folder is read again, so the header does not flicker.
        crumbs: sameFolder ? state.shared.crumbs : [],
        list: loading,
      };
    },
    /** The open list arrived. */
    sharedLoaded(state, action: PayloadAction<SharedLoaded>) {
      const { folderId, items, byMe, allowDownload } = action.payload;
      if (state.shared.folderId !== folderId || state.shared.list.status !== 'loading') return;
      state.shared.items = items;
      state.shared.byMe = byMe;
      state.shared.allowDownload = allowDownload;
      state.shared.list = succeeded;
    },
    /** The open list could not be read. */
    sharedLoadFailed(state, action: PayloadAction<{ folderId: string; message: string }>) {
      if (state.shared.folderId !== action.payload.folderId) return;
      state.shared.list = { status: 'failed', error: action.payload.message };
    },
    /** The open folder's breadcrumbs arrived. */
    crumbsLoaded(
      state,
      action: PayloadAction<{ folderId: string; crumbs: SharedBreadcrumbDto[] }>,
    ) {
      if (state.shared.folderId !== action.payload.folderId) return;
      state.shared.crumbs = action.payload.crumbs;
    },
    /** The server said the access has ended: the page shows so in place of the list. */
    accessEnded(state) {
      state.shared.accessEnded = true;
      state.shared.items = [];
      state.shared.crumbs = [];
    },
    /**
     * Preview or Download of a shared file was pressed: the saga checks that the access still
     * holds, then opens the file.
     */
    fileOpenRequested(_state, _action: PayloadAction<SharedFileOpen>) {},
    /** Shared by me: Remove access was pressed for one share. */
    shareRemovalRequested(state, action: PayloadAction<{ shareId: string }>) {
      if (!state.shared.removing.includes(action.payload.shareId)) {
        state.shared.removing.push(action.payload.shareId);
      }
      state.shared.actionError = null;
    },
    /** The share was removed: its row stays in Shared by me as "Access removed". */
    shareRemoved(state, action: PayloadAction<{ shareId: string }>) {
      const { shareId } = action.payload;
      state.shared.removing = without(state.shared.removing, shareId);
      for (const item of state.shared.byMe) {
        if (item.share_id !== shareId) continue;
        item.share_id = '';
        item.share_state = 'removed';
      }
    },
    /**
     * Shared by me: Copy link was confirmed for a link. Only the hash of a link's token is kept,
     * so the server makes a new one (the URL copied before stops working).
     */
    linkReissueRequested(state, action: PayloadAction<{ linkId: string; name: string }>) {
      state.shared.reissuing = action.payload.linkId;
      state.shared.actionError = null;
    },
    /** The link's new URL: shown to copy. */
    linkReissued(state, action: PayloadAction<{ linkId: string; name: string; url: string }>) {
      state.shared.reissuing = null;
      state.shared.reissued = action.payload;
    },
    /** The link could not be copied again. */
    linkReissueFailed(state, action: PayloadAction<{ message: string }>) {
      state.shared.reissuing = null;
      state.shared.actionError = action.payload.message;
    },
    /** The new URL was closed. */
    linkReissueClosed(state) {
      state.shared.reissued = null;
    },
    /** The share could not be removed. */
    shareRemovalFailed(state, action: PayloadAction<{ shareId: string; message: string }>) {
      state.shared.removing = without(state.shared.removing, action.payload.shareId);
      state.shared.actionError = action.payload.message;
    },
  },
  extraReducers: (builder) => {
    const reset = () => initialSharingState;
    builder
      .addCase(sessionActions.signedOut, reset)
      .addCase(sessionActions.expired, reset)
      .addCase(sessionActions.endedInAnotherTab, reset)
      .addCase(sessionActions.databaseSwitched, (state) => {
        state.dialog = initialDialogState;
        state.shared = initialSharedState;
      });
  },
});

/** Event creators of the sharing slice. */
export const sharingActions = sharingSlice.actions;
/** The sharing slice's reducer. */
export const sharingReducer = sharingSlice.reducer;
