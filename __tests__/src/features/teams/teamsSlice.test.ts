// The teams slice with the members and folder permissions slices it builds on (the teams page uses
// both), as the root reducer holds them: all three start over after sign-out, session expiry and a
// firm switch.
import { describe, expect, it } from '@jest/globals';
import { combineReducers } from '@reduxjs/toolkit';
import { sessionActions } from '@src/features/session/sessionSlice';
import { makeUser } from '../../fixtures';
import { ADA } from '../members/membersFixtures';
import {
  folderPermissionsActions,
  folderPermissionsReducer,
  initialFolderPermissionsState,
} from '@src/features/folderPermissions/folderPermissionsSlice';
import {
  initialMembersState,
  membersActions,
  membersReducer,
} from '@src/features/members/membersSlice';
import { initialTeamsState, teamsReducer } from '@src/features/teams/teamsSlice';

/** The teams, members and folder permissions slices together, as the root reducer holds them. */
const reducer = combineReducers({
  members: membersReducer,
  teams: teamsReducer,
  folderPermissions: folderPermissionsReducer,
});
type State = ReturnType<typeof reducer>;
const initialState: State = {
  members: initialMembersState,
  teams: initialTeamsState,
  folderPermissions: initialFolderPermissionsState,
};

function reduce(...actions: Parameters<typeof reducer>[1][]): State {
  return actions.reduce(reducer, initialState);
}

describe('teams slice with the slices it builds on', () => {
  it('starts over after sign-out and after a firm switch', () => {
    const loaded = reduce(
      membersActions.membersLoaded({ search: '', page: 1, total: 1, items: [ADA] }),
      folderPermissionsActions.folderPermissionsOpened({ id: 'f1', name: 'Clients' }),
    );
    expect(reducer(loaded, sessionActions.signedOut())).toEqual(initialState);
    expect(reducer(loaded, sessionActions.expired())).toEqual(initialState);
    expect(
      reducer(loaded, sessionActions.databaseSwitched(makeUser({ currentDatabaseId: 'db2' }))),
    ).toEqual(initialState);
  });
});
