/** Calls of the flags feature. */
import { REST, get } from '../../api/client';
import type { FeatureFlags } from '../../../common/constants';

/** GET /api/rest/feature_flags: every feature flag of this server (no session needed). */
export function fetchFeatureFlags(): Promise<FeatureFlags> {
  return get<FeatureFlags>(`${REST}/feature_flags`, { reportUnauthorized: false });
}
