/**
 * Sagas of the integrations page: the firms' integration switches and the partner keys. Every
 * worker is wrapped with `safely`; expected failures end in the slice's `…Failed` events with the
 * server's message (or the spec's "Could not get integrations." when a list cannot be read).
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import { all, call, put, takeEvery, takeLatest, takeLeading } from 'typed-redux-saga';
import { MESSAGES } from '@common/messages';
import { errorMessage, listError } from '@src/api/client';
import { notifySuccess } from '@src/features/notifications/notifySuccess';
import { safely } from '@src/sagas/safely';
import type { Saga } from '@src/sagas/saga';
import * as integrationsApi from './integrationsApi';
import { type IntegrationKeyRef, integrationsActions } from './integrationsSlice';

/** Reads the integration switches (GET private/integrations). */
export function* loadIntegrations(): Saga {
  try {
    const items = yield* call(integrationsApi.fetchIntegrations);
    yield* put(integrationsActions.integrationsLoaded(items));
  } catch (error) {
    yield* put(
      integrationsActions.integrationsFailed(listError(MESSAGES.couldNotGetIntegrations, error)),
    );
  }
}

/** Enables or disables a firm's integrations. */
export function* switchIntegration(
  action: PayloadAction<{ databaseId: string; enabled: boolean }>,
): Saga {
  const { databaseId, enabled } = action.payload;
  try {
    const answer = yield* call(integrationsApi.switchIntegration, databaseId, enabled);
    yield* put(integrationsActions.switched(answer));
    yield* call(
      notifySuccess,
      enabled ? 'Integrations were enabled.' : 'Integrations were disabled.',
    );
  } catch (error) {
    yield* put(integrationsActions.switchFailed(errorMessage(error)));
  }
}

/** Reads the firm's partner keys. */
export function* loadKeys(): Saga {
  try {
    const keys = yield* call(integrationsApi.fetchIntegrationKeys);
    yield* put(integrationsActions.keysLoaded(keys));
  } catch (error) {
    yield* put(integrationsActions.keysFailed(listError(MESSAGES.couldNotGetIntegrations, error)));
  }
}

/** Creates a key; the answer carries the key, shown once. */
export function* createKey(action: PayloadAction<IntegrationKeyRef>): Saga {
  const { userId, partnerAppId } = action.payload;
  try {
    const created = yield* call(integrationsApi.createIntegrationKey, partnerAppId, userId);
    yield* put(integrationsActions.keyIssued(created));
  } catch (error) {
    yield* put(integrationsActions.keyChangeFailed(errorMessage(error)));
  }
}

/** Rotates a key: the old one stops working, the new one is shown once. */
export function* rotateKey(action: PayloadAction<IntegrationKeyRef>): Saga {
  const { userId, partnerAppId } = action.payload;
  try {
    const rotated = yield* call(integrationsApi.rotateIntegrationKey, userId, partnerAppId);
    yield* put(integrationsActions.keyIssued(rotated));
  } catch (error) {
    yield* put(integrationsActions.keyChangeFailed(errorMessage(error)));
  }
}

/** Deletes a key. */
export function* deleteKey(action: PayloadAction<IntegrationKeyRef>): Saga {
  const { userId, partnerAppId } = action.payload;
  try {
    yield* call(integrationsApi.deleteIntegrationKey, userId, partnerAppId);
    yield* put(integrationsActions.keyDeleted({ userId, partnerAppId }));
    yield* call(notifySuccess, 'The key was deleted.');
  } catch (error) {
    yield* put(integrationsActions.keyChangeFailed(errorMessage(error)));
  }
}

/** Root saga of the integrations page. */
export function* integrationsSaga(): Saga {
  yield* all([
    takeLatest(integrationsActions.integrationsRequested.type, safely(loadIntegrations)),
    takeEvery(integrationsActions.switchRequested.type, safely(switchIntegration)),
    takeLatest(integrationsActions.keysRequested.type, safely(loadKeys)),
    takeLeading(integrationsActions.keyCreateRequested.type, safely(createKey)),
    takeLeading(integrationsActions.keyRotateRequested.type, safely(rotateKey)),
    takeLeading(integrationsActions.keyDeleteRequested.type, safely(deleteKey)),
  ]);
}
