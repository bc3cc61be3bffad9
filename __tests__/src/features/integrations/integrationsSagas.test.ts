// Integrations sagas against a stubbed API and the real store: the spec message when the switches
// cannot be read, switching the current firm, creating, rotating and deleting keys, and a create
// refusal (409 key_exists) kept for the dialog.
import { describe, expect, it } from '@jest/globals';
import { waitFor } from '@testing-library/react';
import { MESSAGES } from '@common/messages';
import { callsTo } from '../../fixtures';
import { startSagaStore } from '../../sagaStore';
import { makeCreatedKey, makeIntegration, makeKey } from './integrationsFixtures';
import { allowConsoleError } from '../../consoleErrors';
import { integrationsActions } from '@src/features/integrations/integrationsSlice';

const start = startSagaStore;

describe('integration sagas', () => {
  it('says "Could not get integrations." when the switches cannot be read', async () => {
    allowConsoleError(/^GET \/api\/rest\/private\/integrations\S* answered 500/);
    const { store } = start({
      'GET /api/rest/private/integrations': { status: 500, body: { message: 'Boom.', code: 'x' } },
    });
    store.dispatch(integrationsActions.integrationsRequested());
    await waitFor(() => expect(store.getState().integrations.integrations.status).toBe('failed'));
    expect(store.getState().integrations.integrations.error).toBe(
      `${MESSAGES.couldNotGetIntegrations} Boom.`,
    );
  });

  it('switches the current firm and creates, rotates and deletes keys', async () => {
    const { calls, store } = start({
      'GET /api/rest/private/integrations': { body: { integrations: [makeIntegration()] } },
      'POST /api/rest/private/integrations/enable': {
        body: makeIntegration({ enabled: true, updatedAt: '2024-04-01T00:00:00.000Z' }),
      },
      'GET /api/rest/private/integrations/userkey': { body: { keys: [] } },
      'POST /api/rest/private/integrations/userkey': { status: 201, body: makeCreatedKey() },
      'POST /api/rest/private/integrations/users/u2': {
        body: makeCreatedKey({ key: 'dsk_rotatedrotated', prefix: 'dsk_rotatedr' }),
      },
      'DELETE /api/rest/private/integrations/users/u2': { status: 204 },
    });
    store.dispatch(integrationsActions.integrationsRequested());
    store.dispatch(integrationsActions.keysRequested());
    await waitFor(() => expect(store.getState().integrations.keys.status).toBe('succeeded'));
    store.dispatch(integrationsActions.switchRequested({ databaseId: 'db1', enabled: true }));
    await waitFor(() =>
      expect(store.getState().integrations.integrations.items[0]?.enabled).toBe(true),
    );
    expect(callsTo(calls, 'POST /api/rest/private/integrations/enable')[0]?.body).toEqual({
      databaseId: 'db1',
    });

    store.dispatch(integrationsActions.keyCreateRequested({ userId: 'u2', partnerAppId: 'crm' }));
    await waitFor(() => expect(store.getState().integrations.newKey).not.toBeNull());
    const create = callsTo(calls, 'POST /api/rest/private/integrations/userkey')[0];
    expect(create?.url).toBe('/api/rest/private/integrations/userkey?partner_app_id=crm');
    expect(create?.body).toEqual({ userId: 'u2' });
    store.dispatch(integrationsActions.newKeyDismissed());

    store.dispatch(integrationsActions.keyRotateRequested({ userId: 'u2', partnerAppId: 'crm' }));
    await waitFor(() =>
      expect(store.getState().integrations.newKey?.key).toBe('dsk_rotatedrotated'),
    );
    expect(store.getState().integrations.keys.items.map((key) => key.prefix)).toEqual([
      'dsk_rotatedr',
    ]);
    store.dispatch(integrationsActions.newKeyDismissed());

    store.dispatch(integrationsActions.keyDeleteRequested({ userId: 'u2', partnerAppId: 'crm' }));
    await waitFor(() => expect(store.getState().integrations.keys.items).toEqual([]));
    expect(callsTo(calls, 'DELETE /api/rest/private/integrations/users/u2')[0]?.url).toBe(
      '/api/rest/private/integrations/users/u2?partner_app_id=crm',
    );
  });

  it('keeps a create failure (409 key_exists) for the dialog', async () => {
    allowConsoleError(/^POST \/api\/rest\/private\/integrations\/userkey\S* answered 409/);
    const { store } = start({
      'GET /api/rest/private/integrations/userkey': { body: { keys: [makeKey()] } },
      'POST /api/rest/private/integrations/userkey': {
        status: 409,
        body: { message: 'This user already has a key.', code: 'key_exists' },
      },
    });
    store.dispatch(integrationsActions.keyCreateRequested({ userId: 'u2', partnerAppId: 'crm' }));
    await waitFor(() => expect(store.getState().integrations.change).toBe('failed'));
    expect(store.getState().integrations.changeError).toBe('This user already has a key.');
    expect(store.getState().integrations.newKey).toBeNull();
  });
});
