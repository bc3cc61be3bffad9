/** The Share action of the side panel (issue 7). */
import type { EntityDto } from '../../../../common/types';

/** The Share action of the side panel. */
export function ShareButton(_props: { entity: EntityDto }) {
  return null;
}
