/**
 * Integrations slice (SPEC sections 4 and 7 "Integrations", "Integration user
 * keys"): the integration switch of the current firm database and its partner keys. A key just
 * created or rotated is held in `newKey` only until its dialog is closed (it cannot be shown
 * again: the server keeps its sha256); sign-out and a firm switch drop it too.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type {
  CreatedIntegrationKeyDto,
  IntegrationDto,
  IntegrationKeyDto,
} from '@common/integrations';
import type { Status } from '@src/store/status';
import { sessionActions } from '../session/sessionSlice';

/** Identifies a key: its user and partner app (the server's rotate and delete take both). */
export interface IntegrationKeyRef {
  userId: string;
  partnerAppId: string;
}

/** The integrations slice's state. */
export interface IntegrationsState {
  /** The firms' switches (GET private/integrations). */
  integrations: { status: Status; error: string | null; items: IntegrationDto[] };
  /** The database whose switch is being changed, or null. */
  switching: string | null;
  switchError: string | null;
  /** The current firm's keys (never the keys themselves). */
  keys: { status: Status; error: string | null; items: IntegrationKeyDto[] };
  /** Create, rotate or delete in flight, or its failure. */
  change: Status;
  changeError: string | null;
  /** The key just created or rotated, shown once; null otherwise. */
  newKey: CreatedIntegrationKeyDto | null;
}

/** The state before anything is loaded. */
export const initialIntegrationsState: IntegrationsState = {
  integrations: { status: 'idle', error: null, items: [] },
  switching: null,
  switchError: null,
  keys: { status: 'idle', error: null, items: [] },
  change: 'idle',
  changeError: null,
  newKey: null,
};

function withoutSecret(key: CreatedIntegrationKeyDto): IntegrationKeyDto {
  const { key: _secret, ...listed } = key;
  return listed;
}

const integrationsSlice = createSlice({
  name: 'integrations',
  initialState: initialIntegrationsState,
  reducers: {
    /** The integrations page is shown: read the switches and the keys. */
    integrationsRequested(state) {
      state.integrations.status = 'loading';
      state.integrations.error = null;
    },
    integrationsLoaded(state, action: PayloadAction<IntegrationDto[]>) {
      state.integrations = { status: 'succeeded', error: null, items: action.payload };
    },
    /** Payload: MESSAGES.couldNotGetIntegrations (with the reason). */
    integrationsFailed(state, action: PayloadAction<string>) {
      state.integrations.status = 'failed';
      state.integrations.error = action.payload;
    },
    /** Enable or disable a firm's integrations. */
    switchRequested(state, action: PayloadAction<{ databaseId: string; enabled: boolean }>) {
      state.switching = action.payload.databaseId;
      state.switchError = null;
    },
    switched(state, action: PayloadAction<IntegrationDto>) {
      const index = state.integrations.items.findIndex(
        (item) => item.databaseId === action.payload.databaseId,
      );
      if (index === -1) state.integrations.items.push(action.payload);
      else state.integrations.items[index] = action.payload;
      state.switching = null;
    },
    switchFailed(state, action: PayloadAction<string>) {
      state.switching = null;
      state.switchError = action.payload;
    },
    keysRequested(state) {
      state.keys.status = 'loading';
      state.keys.error = null;
    },
    keysLoaded(state, action: PayloadAction<IntegrationKeyDto[]>) {
      state.keys = { status: 'succeeded', error: null, items: action.payload };
    },
    keysFailed(state, action: PayloadAction<string>) {
      state.keys.status = 'failed';
      state.keys.error = action.payload;
    },
    keyCreateRequested(state, _action: PayloadAction<IntegrationKeyRef>) {
      state.change = 'loading';
      state.changeError = null;
    },
    keyRotateRequested(state, _action: PayloadAction<IntegrationKeyRef>) {
      state.change = 'loading';
      state.changeError = null;
    },
    keyDeleteRequested(state, _action: PayloadAction<IntegrationKeyRef>) {
      state.change = 'loading';
      state.changeError = null;
    },
    /** A key was created or rotated: listed without its secret, shown once in `newKey`. */
    keyIssued(state, action: PayloadAction<CreatedIntegrationKeyDto>) {
      const listed = withoutSecret(action.payload);
      const index = state.keys.items.findIndex(
        (item) => item.userId === listed.userId && item.partnerAppId === listed.partnerAppId,
      );
      if (index === -1) state.keys.items.push(listed);
      else state.keys.items[index] = listed;
      state.change = 'succeeded';
      state.newKey = action.payload;
    },
    keyDeleted(state, action: PayloadAction<IntegrationKeyRef>) {
      const { userId, partnerAppId } = action.payload;
      state.keys.items = state.keys.items.filter(
        (item) => !(item.userId === userId && item.partnerAppId === partnerAppId),
      );
      state.change = 'succeeded';
    },
    keyChangeFailed(state, action: PayloadAction<string>) {
      state.change = 'failed';
      state.changeError = action.payload;
    },
    /** The dialog showing a new key was closed: the key is gone for good. */
    newKeyDismissed(state) {
      state.newKey = null;
      state.change = 'idle';
    },
    /** A create/rotate/delete error was acknowledged. */
    changeErrorCleared(state) {
      state.change = 'idle';
      state.changeError = null;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionActions.signedOut, () => initialIntegrationsState)
      .addCase(sessionActions.expired, () => initialIntegrationsState)
      .addCase(sessionActions.endedInAnotherTab, () => initialIntegrationsState)
      .addCase(sessionActions.databaseSwitched, () => initialIntegrationsState);
  },
});

/** Event creators of the integrations slice. */
export const integrationsActions = integrationsSlice.actions;
/** The integrations slice's reducer. */
export const integrationsReducer = integrationsSlice.reducer;
