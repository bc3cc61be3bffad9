/** Selectors of the notifications slice. */
import type { RootState } from '@src/store/rootReducer';

/** The notification panel (status, title, content). */
export const selectNotificationPanel = (state: RootState) => state.notifications.panel;
/** The success toasts shown, oldest first. */
export const selectSuccessToasts = (state: RootState) => state.notifications.toasts;
/** The info messages shown, oldest first. */
export const selectInfoMessages = (state: RootState) => state.notifications.messages;
/** One toast by id, or undefined. */
export const selectSuccessToast = (state: RootState, id: string) =>
  state.notifications.toasts.find((toast) => toast.id === id);
/** What the live region announced last ("Undone: …"). */
export const selectAnnouncement = (state: RootState) => state.notifications.announcement;
