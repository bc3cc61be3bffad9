/** The side panel section listing and applying index values (issue 9). */
import type { EntityDto } from '../../../../common/types';

/** The side panel section listing and applying index values. */
export function AppliedIndexesSection(_props: { entity: EntityDto }) {
  return null;
}
