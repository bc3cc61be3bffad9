/**
 * Notifications slice (SPEC section 2): the notification panel (opens with a title and
 * content, closes), success toasts (title, body, optional Undo, close button; they close
 * themselves after SUCCESS_TOAST_MS) and info messages (INFO_MESSAGE_MS). Any feature shows one by
 * dispatching an event of this slice, e.g.
 * `notificationsActions.successToastRequested({ title: 'Archived', body: '3 items', undoActionType:
 * 'bulk/undoRequested', undoPayload: { batchId } })`; the timers live in notificationsSagas.ts.
 */
import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';

/** Any JSON value: what an Undo action may carry (the store and actions stay serializable). */
export type JsonValue =
  string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Open or closed. */
export type PanelStatus = 'open' | 'closed';

/** The notification panel: a title and a text, with a Close button. */
export interface NotificationPanelState {
  status: PanelStatus;
  title: string;
  content: string;
}

/** The action an Undo button dispatches (a plain, serializable action). */
export interface UndoAction {
  type: string;
  payload?: JsonValue;
}

/** One success toast. */
export interface SuccessToast {
  id: string;
  title: string;
  body: string;
  /** The action Undo dispatches; null: no Undo button. */
  undo: UndoAction | null;
}

/** Kinds of info messages (colour and icon). */
export type InfoMessageKind = 'info' | 'success' | 'warning' | 'error';

/** One info message. */
export interface InfoMessage {
  id: string;
  kind: InfoMessageKind;
  text: string;
}

/** The notifications slice's state. */
export interface NotificationsState {
  panel: NotificationPanelState;
  /** Success toasts, oldest first. */
  toasts: SuccessToast[];
  /** Info messages, oldest first. */
  messages: InfoMessage[];
  /**
   * What the screen-reader live region says last ("Undone: …" after an Undo); `id` changes with
   * each announcement so the same words are read again.
   */
  announcement: { id: string; text: string };
}

/** What `notifications/successToastRequested` takes. */
export interface SuccessToastRequest {
  title: string;
  body: string;
  /** Type of the action the Undo button dispatches; no Undo button without it. */
  undoActionType?: string;
  /** Payload of that action (JSON only). */
  undoPayload?: JsonValue;
}

/** What `notifications/infoMessageRequested` takes. */
export interface InfoMessageRequest {
  text: string;
  /** Default 'info'. */
  kind?: InfoMessageKind;
}

/** Why a toast or message went away. */
export type CloseReason = 'closed' | 'expired' | 'undone';

/** The state with nothing shown. */
const initialNotificationsState: NotificationsState = {
  panel: { status: 'closed', title: '', content: '' },
  toasts: [],
  messages: [],
  announcement: { id: '', text: '' },
};

/** The words announced after a toast's Undo: "Undone: " and what the toast said. */
function undoneAnnouncement(toast: Pick<SuccessToast, 'title' | 'body'>): string {
  return `Undone: ${toast.body || toast.title}`;
}

const notificationsSlice = createSlice({
  name: 'notifications',
  initialState: initialNotificationsState,
  reducers: {
    /** A feature opens the notification panel with a title and content. */
    panelOpened(state, action: PayloadAction<{ title: string; content: string }>) {
      state.panel = { status: 'open', ...action.payload };
    },
    /** The user closed the panel. */
    panelClosed(state) {
      state.panel.status = 'closed';
    },
    /** A feature shows a success toast; the id is made here so the action names it. */
    successToastRequested: {
      reducer(state, action: PayloadAction<SuccessToast>) {
        state.toasts.push(action.payload);
      },
      prepare(request: SuccessToastRequest) {
        const undo: UndoAction | null = request.undoActionType
          ? {
              type: request.undoActionType,
              ...(request.undoPayload !== undefined ? { payload: request.undoPayload } : {}),
            }
          : null;
        return { payload: { id: nanoid(), title: request.title, body: request.body, undo } };
      },
    },
    /**
     * The user pressed a toast's Undo (or Ctrl/Cmd+Z while it was open); the saga dispatches its
     * action and closes the toast; screen readers are told what was undone.
     */
    undoClicked(state, action: PayloadAction<{ id: string }>) {
      const toast = state.toasts.find((shown) => shown.id === action.payload.id);
      if (toast?.undo) state.announcement = { id: toast.id, text: undoneAnnouncement(toast) };
    },
    /** A toast went away: closed by the user, after SUCCESS_TOAST_MS, or after its Undo. */
    successToastClosed(state, action: PayloadAction<{ id: string; reason: CloseReason }>) {
      state.toasts = state.toasts.filter((toast) => toast.id !== action.payload.id);
    },
    /** A feature shows an info message. */
    infoMessageRequested: {
      reducer(state, action: PayloadAction<InfoMessage>) {
        state.messages.push(action.payload);
      },
      prepare(request: InfoMessageRequest) {
        return { payload: { id: nanoid(), kind: request.kind ?? 'info', text: request.text } };
      },
    },
    /** An info message went away (closed, or after INFO_MESSAGE_MS). */
    infoMessageClosed(state, action: PayloadAction<{ id: string; reason: CloseReason }>) {
      state.messages = state.messages.filter((message) => message.id !== action.payload.id);
    },
  },
});

/** Event creators of the notifications slice. */
export const notificationsActions = notificationsSlice.actions;
/** The notifications slice's reducer. */
export const notificationsReducer = notificationsSlice.reducer;
