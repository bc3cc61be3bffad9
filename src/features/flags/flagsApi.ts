/** Calls of the flags feature. */
import { REST } from '@src/api/client';
import { getWarm } from '@src/api/prefetch';
import type { FeatureFlags } from '@common/constants';

/** The feature flags' address, asked for at start by src/main.tsx too. */
export const FEATURE_FLAGS_PATH = `${REST}/feature_flags`;

/**
 * GET /api/rest/feature_flags: every feature flag of this server (no session needed). The
 * start-up's early call (src/main.tsx) is taken when there is one.
 */
export function fetchFeatureFlags(): Promise<FeatureFlags> {
  return getWarm<FeatureFlags>(FEATURE_FLAGS_PATH, undefined, false);
}
