import { describe, expect, it } from '@jest/globals';
import {
  selectCanSwitchDatabase,
  selectCurrentDatabase,
  selectSwitchableDatabases,
  selectUserDisplayName,
} from '@src/features/session/sessionSelectors';
import { rootReducer, type RootState } from '@src/store/rootReducer';
import { makeUser } from '../../fixtures';

function stateWith(user: ReturnType<typeof makeUser> | null): RootState {
  const initial = rootReducer(undefined, { type: 'test/init' });
  return { ...initial, session: { ...initial.session, user, status: 'succeeded' } };
}

describe('session selectors', () => {
  it('builds the display name, falling back to the username', () => {
    expect(selectUserDisplayName(stateWith(makeUser()))).toBe('Ada Lovelace');
    expect(selectUserDisplayName(stateWith(makeUser({ firstName: '', lastName: '' })))).toBe('ada');
    expect(selectUserDisplayName(stateWith(null))).toBe('');
  });

  it('finds the current database', () => {
    expect(selectCurrentDatabase(stateWith(makeUser()))?.description).toBe('North Advisors');
    expect(selectCurrentDatabase(stateWith(null))).toBeNull();
  });

  it('offers the firm switcher only for more than one database', () => {
    expect(selectCanSwitchDatabase(stateWith(makeUser()))).toBe(true);
    const single = makeUser({ databases: [makeUser().databases[0]!] });
    expect(selectCanSwitchDatabase(stateWith(single))).toBe(false);
    expect(selectCanSwitchDatabase(stateWith(null))).toBe(false);
  });

  it('offers the databases with a description, one per description, and names the current one', () => {
    const user = makeUser({
      currentDatabaseId: 'sandbox',
      databases: [
        { id: 'sandbox', name: 'sandbox', description: null, role: 'admin' },
        { id: 'db1', name: 'north', description: 'North Advisors', role: 'admin' },
        { id: 'db1b', name: 'north-2', description: 'North Advisors', role: 'member' },
        { id: 'db2', name: 'blank', description: ' ', role: 'member' },
      ],
    });
    // The current database has no description: it is still shown (first), so the switcher says
    // where the user is; it offers North Advisors once.
    expect(selectSwitchableDatabases(stateWith(user)).map((d) => d.id)).toEqual(['sandbox', 'db1']);
    expect(selectCanSwitchDatabase(stateWith(user))).toBe(true);
  });

  it('memoizes derived values', () => {
    const state = stateWith(makeUser());
    expect(selectCurrentDatabase(state)).toBe(selectCurrentDatabase({ ...state }));
  });
});
