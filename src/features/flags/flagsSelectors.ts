/** Selectors of the flags slice. */
import type { FeatureFlags } from '../../../common/constants';
import type { RootState } from '../../store/rootReducer';

/** Every feature flag (the defaults until loaded). */
export const selectFeatureFlags = (state: RootState) => state.flags.values;
/** Status of loading the flags. */
export const selectFlagsStatus = (state: RootState) => state.flags.status;
/** One flag's value: `useAppSelector((s) => selectFeatureFlag(s, 'sharing'))`. */
export const selectFeatureFlag = (state: RootState, name: keyof FeatureFlags) =>
  state.flags.values[name];
/** Whether maintenance mode is on. */
export const selectMaintenanceMode = (state: RootState) => state.flags.values.maintenanceMode;
