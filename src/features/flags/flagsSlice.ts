/**
 * Flags slice (SPEC section 3 "Feature flags"): the server's feature flags, loaded once at
 * start-up (`flags/loadRequested`, dispatched with the current-user request). Until they arrive,
 * or when they cannot be read, the defaults of FEATURE_FLAG_DEFAULTS apply. Other features read a
 * flag with selectFeatureFlag(name).
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { FEATURE_FLAG_DEFAULTS, type FeatureFlags } from '@common/constants';
import type { Status } from '@src/store/status';

/** The flags slice's state. */
export interface FlagsState {
  status: Status;
  /** Every flag; the defaults until the server answered. */
  values: FeatureFlags;
  /** Why loading failed (the defaults stay in force). */
  error: string | null;
}

/** The state before the flags are loaded. */
export const initialFlagsState: FlagsState = {
  status: 'idle',
  values: { ...FEATURE_FLAG_DEFAULTS },
  error: null,
};

/** Keeps the known flags of an answer (booleans only) over the defaults. */
function mergeFlags(answer: Partial<Record<string, unknown>>): FeatureFlags {
  const merged = { ...FEATURE_FLAG_DEFAULTS } as { -readonly [K in keyof FeatureFlags]: boolean };
  for (const name of Object.keys(FEATURE_FLAG_DEFAULTS) as (keyof FeatureFlags)[]) {
    const value = answer[name];
    if (typeof value === 'boolean') merged[name] = value;
  }
  return merged;
}

const flagsSlice = createSlice({
  name: 'flags',
  initialState: initialFlagsState,
  reducers: {
    /** The app asks for the server's flags (start-up). */
    loadRequested(state) {
      state.status = 'loading';
      state.error = null;
    },
    /** The server answered its flags. */
    loaded(state, action: PayloadAction<FeatureFlags>) {
      state.status = 'succeeded';
      state.values = mergeFlags(action.payload);
    },
    /** The flags could not be read; payload is the message. The defaults stay. */
    loadFailed(state, action: PayloadAction<string>) {
      state.status = 'failed';
      state.error = action.payload;
    },
  },
});

/** Event creators of the flags slice. */
export const flagsActions = flagsSlice.actions;
/** The flags slice's reducer. */
export const flagsReducer = flagsSlice.reducer;
