/** Selectors of the session-timeout slice. */
import { createSelector } from '@reduxjs/toolkit';
import { formatCountdown } from '@common/session';
import type { RootState } from '@src/store/rootReducer';

/** The whole session-timeout slice. */
export const selectSessionTimeout = (state: RootState) => state.sessionTimeout;
/** Where this tab is in the inactivity cycle. */
export const selectSessionTimeoutPhase = (state: RootState) => state.sessionTimeout.phase;
/** Whether the timeout warning panel is open. */
export const selectIsTimeoutWarningOpen = (state: RootState) =>
  state.sessionTimeout.phase === 'warning';
/** Time left on the countdown, in ms. */
const selectTimeoutRemainingMs = (state: RootState) => state.sessionTimeout.remainingMs;
/** Time left as shown in the warning text, `m:ss`. */
export const selectTimeoutRemainingText = createSelector([selectTimeoutRemainingMs], (ms) =>
  formatCountdown(ms),
);
/** The Extend request's status and error. */
export const selectExtendRequest = createSelector(
  [
    (state: RootState) => state.sessionTimeout.extend,
    (state: RootState) => state.sessionTimeout.extendError,
  ],
  (status, error) => ({ status, error }),
);
