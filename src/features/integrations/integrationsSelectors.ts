/** Selectors of the integrations page. */
import { createSelector } from '@reduxjs/toolkit';
import { selectCurrentDatabaseId } from '@src/features/session/sessionSelectors';
import type { RootState } from '@src/store/rootReducer';

/** The integration switches. */
export const selectIntegrations = (state: RootState) => state.integrations.integrations;
/** The integrations slice (switching, keys, the new key). */
export const selectIntegrationsState = (state: RootState) => state.integrations;

/** The current firm database's integration switch, or null when not (yet) known. */
export const selectCurrentIntegration = createSelector(
  [selectIntegrations, selectCurrentDatabaseId],
  (integrations, databaseId) =>
    integrations.items.find((item) => item.databaseId === databaseId) ?? null,
);
