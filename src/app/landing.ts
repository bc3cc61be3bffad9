/** The landing location after sign-in (SPEC section 2). */
import { LANDING_HOME, LANDING_SHARED } from '@common/constants';

/** The route of the home landing. */
export const HOME_ROUTE = '/home';

/**
 * Resolves the `?landing=` value to a route: exactly 'home' gives /home, exactly
 * '/sharing/shared' gives /sharing/shared; any other value (missing, empty, another path, an
 * absolute URL) falls back to home.
 * @param value the raw query value, or null
 * @returns the route to navigate to
 */
export function resolveLanding(value: string | null | undefined): string {
  if (value === LANDING_SHARED) return LANDING_SHARED;
  if (value === LANDING_HOME) return HOME_ROUTE;
  return HOME_ROUTE;
}
