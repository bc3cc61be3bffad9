/** Selectors of the flags slice. */
import type { FeatureFlags } from '@common/constants';
import type { RootState } from '@src/store/rootReducer';

/** One flag's value: `useAppSelector((s) => selectFeatureFlag(s, 'sharing'))`. */
export const selectFeatureFlag = (state: RootState, name: keyof FeatureFlags) =>
  state.flags.values[name];
/** Whether maintenance mode is on. */
export const selectMaintenanceMode = (state: RootState) => state.flags.values.maintenanceMode;
