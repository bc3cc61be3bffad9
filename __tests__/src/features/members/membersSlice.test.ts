// The members slice and selectors: the list's pages (page 1 replaces, later pages append without
// repeats, an answer for an older search text is dropped), the spec message of a failed read, the
// member dialogs (a failure keeps one open, a save closes it and updates the row or the count), and
// the search that narrows the loaded rows, with the role labels. Its reset on a session end is
// asserted with the slices that build on it, in teams/teamsSlice.test.ts.
import { describe, expect, it } from '@jest/globals';
import { combineReducers } from '@reduxjs/toolkit';
import type { RootState } from '@src/store/rootReducer';
import { makeStore } from '@src/store/store';
import { signedInState } from '../../fixtures';
import { ADA, ALAN, GRACE } from './membersFixtures';
import {
  memberMatches,
  roleLabel,
  selectSelectedMember,
  selectVisibleMembers,
} from '@src/features/members/membersSelectors';
import {
  initialMembersState,
  membersActions,
  membersReducer,
} from '@src/features/members/membersSlice';

/** The members slice under its key, as the root reducer holds it. */
const reducer = combineReducers({
  members: membersReducer,
});
type State = ReturnType<typeof reducer>;
const initialState: State = {
  members: initialMembersState,
};

function reduce(...actions: Parameters<typeof reducer>[1][]): State {
  return actions.reduce(reducer, initialState);
}

function rootState(slices: State): RootState {
  const store = makeStore(signedInState());
  const state = { ...store.getState(), ...slices };
  store.sagaTask.cancel();
  return state;
}

describe('members slice', () => {
  it('replaces the list with page 1 and appends later pages without repeats', () => {
    let state = reduce(
      membersActions.membersRequested(),
      membersActions.membersLoaded({ search: '', page: 1, total: 3, items: [ADA, GRACE] }),
    );
    expect(state.members.list.status).toBe('succeeded');
    expect(state.members.list.items.map((m) => m.id)).toEqual(['u1', 'u2']);
    state = reducer(state, membersActions.membersMoreRequested());
    expect(state.members.list.more).toBe('loading');
    state = reducer(
      state,
      membersActions.membersLoaded({ search: '', page: 2, total: 3, items: [GRACE, ALAN] }),
    );
    expect(state.members.list.items.map((m) => m.id)).toEqual(['u1', 'u2', 'u3']);
    expect(state.members.list.page).toBe(2);
    expect(state.members.list.more).toBe('idle');
  });

  it('asks for no next page when every match is loaded', () => {
    const state = reduce(
      membersActions.membersLoaded({ search: '', page: 1, total: 2, items: [ADA, GRACE] }),
      membersActions.membersMoreRequested(),
    );
    expect(state.members.list.more).toBe('idle');
  });

  it('ignores a page answered for an older search text', () => {
    const state = reduce(
      membersActions.memberSearchChanged('gra'),
      membersActions.membersLoaded({ search: '', page: 1, total: 3, items: [ADA, GRACE, ALAN] }),
    );
    expect(state.members.list.items).toEqual([]);
    expect(state.members.list.status).toBe('idle');
  });

  it('keeps the spec message of a failed read', () => {
    const state = reduce(
      membersActions.membersRequested(),
      membersActions.membersFailed('Could not get database users.'),
    );
    expect(state.members.list).toMatchObject({
      status: 'failed',
      error: 'Could not get database users.',
    });
  });

  it('opens a dialog for the selected member, keeps a failure open and closes on save', () => {
    let state = reduce(
      membersActions.membersLoaded({ search: '', page: 1, total: 2, items: [ADA, GRACE] }),
      membersActions.memberDialogOpened({ kind: 'update', memberId: 'u2' }),
    );
    expect(state.members.dialog).toEqual({
      kind: 'update',
      memberId: 'u2',
      status: 'idle',
      error: null,
    });
    expect(selectSelectedMember(rootState(state))?.username).toBe('grace');
    state = reducer(
      state,
      membersActions.memberUpdateRequested({ memberId: 'u2', changes: { firstName: 'G' } }),
    );
    expect(state.members.dialog.status).toBe('loading');
    state = reducer(state, membersActions.memberDialogFailed('That username is already taken.'));
    expect(state.members.dialog).toMatchObject({
      kind: 'update',
      status: 'failed',
      error: 'That username is already taken.',
    });
    state = reducer(state, membersActions.memberSaved({ ...GRACE, firstName: 'G' }));
    expect(state.members.dialog.kind).toBeNull();
    expect(state.members.list.items[1]?.firstName).toBe('G');
    expect(state.members.list.total).toBe(2);
  });

  it('counts a created member', () => {
    const state = reduce(
      membersActions.membersLoaded({ search: '', page: 1, total: 1, items: [ADA] }),
      membersActions.memberDialogOpened({ kind: 'create' }),
      membersActions.memberSaved(GRACE),
    );
    expect(state.members.list.total).toBe(2);
    expect(state.members.list.items.map((m) => m.id)).toEqual(['u1', 'u2']);
  });
});

describe('members selectors', () => {
  it('matches every word of the search in names, username, e-mail or role', () => {
    expect(memberMatches(GRACE, '')).toBe(true);
    expect(memberMatches(GRACE, 'hopper GRA')).toBe(true);
    expect(memberMatches(GRACE, 'example.com')).toBe(true);
    expect(memberMatches(ALAN, 'read only')).toBe(true);
    expect(memberMatches(GRACE, 'grace turing')).toBe(false);
  });

  it('narrows the loaded rows by the search text at once', () => {
    const state = reduce(
      membersActions.membersLoaded({ search: '', page: 1, total: 3, items: [ADA, GRACE, ALAN] }),
      membersActions.memberSearchChanged('tur'),
    );
    expect(selectVisibleMembers(rootState(state)).map((m) => m.id)).toEqual(['u3']);
  });

  it('labels roles with capitalize', () => {
    expect(roleLabel('admin')).toBe('Admin');
    expect(roleLabel('read_only')).toBe('Read only');
    expect(roleLabel('member')).toBe('Member');
  });
});
