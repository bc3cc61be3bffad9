/** Selectors of the teams page. */
import { createSelector } from '@reduxjs/toolkit';
import type { RootState } from '@src/store/rootReducer';

/** The teams list. */
export const selectTeams = (state: RootState) => state.teams.list;
/** The open team dialog. */
export const selectTeamDialog = (state: RootState) => state.teams.dialog;

/** The team of the open team dialog, or null. */
export const selectSelectedTeam = createSelector(
  [selectTeams, selectTeamDialog],
  (teams, dialog) =>
    dialog.teamId === null ? null : (teams.items.find((team) => team.id === dialog.teamId) ?? null),
);
