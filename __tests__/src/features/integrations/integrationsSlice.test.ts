// The integrations slice and selectors: a new key listed without its secret, the secret held until
// dismissed and forgotten on sign-out, a rotated key replaced and a deleted one dropped, and the
// current firm database's switch.
import { describe, expect, it } from '@jest/globals';
import { sessionActions } from '@src/features/session/sessionSlice';
import { makeStore } from '@src/store/store';
import { signedInState } from '../../fixtures';
import { makeCreatedKey, makeIntegration, makeKey } from './integrationsFixtures';
import { selectCurrentIntegration } from '@src/features/integrations/integrationsSelectors';
import {
  initialIntegrationsState,
  integrationsActions,
  integrationsReducer,
} from '@src/features/integrations/integrationsSlice';

describe('integrations slice', () => {
  it('lists a new key without its secret and holds the secret until dismissed', () => {
    let state = integrationsReducer(
      initialIntegrationsState,
      integrationsActions.keysLoaded([
        makeKey({ id: 'k0', userId: 'u1', userName: 'Ada Lovelace' }),
      ]),
    );
    state = integrationsReducer(
      state,
      integrationsActions.keyCreateRequested({ userId: 'u2', partnerAppId: 'crm' }),
    );
    expect(state.change).toBe('loading');
    state = integrationsReducer(state, integrationsActions.keyIssued(makeCreatedKey()));
    expect(state.keys.items).toHaveLength(2);
    expect(state.keys.items[1]).not.toHaveProperty('key');
    expect(state.newKey?.key).toBe(makeCreatedKey().key);
    state = integrationsReducer(state, integrationsActions.newKeyDismissed());
    expect(state.newKey).toBeNull();
    expect(JSON.stringify(state)).not.toContain('secret');
  });

  it('replaces a rotated key and drops a deleted one', () => {
    let state = integrationsReducer(
      initialIntegrationsState,
      integrationsActions.keysLoaded([makeKey()]),
    );
    state = integrationsReducer(
      state,
      integrationsActions.keyIssued(
        makeCreatedKey({ id: 'k2', prefix: 'dsk_NewPref1', rotatedAt: '2024-04-01T00:00:00.000Z' }),
      ),
    );
    expect(state.keys.items.map((key) => key.prefix)).toEqual(['dsk_NewPref1']);
    state = integrationsReducer(
      state,
      integrationsActions.keyDeleted({ userId: 'u2', partnerAppId: 'crm' }),
    );
    expect(state.keys.items).toEqual([]);
  });

  it('forgets a new key on sign-out', () => {
    const state = integrationsReducer(
      initialIntegrationsState,
      integrationsActions.keyIssued(makeCreatedKey()),
    );
    expect(integrationsReducer(state, sessionActions.signedOut()).newKey).toBeNull();
  });

  it('finds the current firm database switch', () => {
    const store = makeStore(signedInState());
    store.dispatch(
      integrationsActions.integrationsLoaded([
        makeIntegration({ databaseId: 'db2', enabled: true }),
        makeIntegration(),
      ]),
    );
    expect(selectCurrentIntegration(store.getState())).toMatchObject({
      databaseId: 'db1',
      enabled: false,
    });
    store.sagaTask.cancel();
  });
});
