// Teams sagas against a stubbed API and the real store: creating a team, and reading the teams
// again after a member is removed (204).
import { describe, expect, it } from '@jest/globals';
import { waitFor } from '@testing-library/react';
import { callsTo } from '../../fixtures';
import { startSagaStore } from '../../sagaStore';
import { makeTeam } from './teamsFixtures';
import { teamsActions } from '@src/features/teams/teamsSlice';

const start = startSagaStore;

describe('team sagas', () => {
  it('creates a team, and reads the teams again after removing a member (204)', async () => {
    const { calls, store } = start({
      'POST /api/rest/private/teams': { body: makeTeam() },
      'DELETE /api/rest/private/teams/t1/members/u2': { status: 204 },
      'GET /api/rest/private/teams': { body: [makeTeam({ member_ids: [] })] },
    });
    store.dispatch(teamsActions.teamDialogOpened({ kind: 'create' }));
    store.dispatch(teamsActions.teamCreateRequested({ name: 'Advisors', memberIds: ['u2'] }));
    await waitFor(() => expect(store.getState().teams.list.items).toHaveLength(1));
    expect(callsTo(calls, 'POST /api/rest/private/teams')[0]?.body).toEqual({
      name: 'Advisors',
      member_ids: ['u2'],
    });
    store.dispatch(teamsActions.teamDialogOpened({ kind: 'members', teamId: 't1' }));
    store.dispatch(teamsActions.teamMemberRemoveRequested({ teamId: 't1', userId: 'u2' }));
    await waitFor(() => expect(store.getState().teams.list.items[0]?.member_ids).toEqual([]));
    expect(store.getState().teams.dialog).toMatchObject({
      kind: 'members',
      status: 'succeeded',
    });
  });
});
