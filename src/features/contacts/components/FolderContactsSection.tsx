/** The side panel section linking CRM contacts to a folder (issue 9). */
import type { FolderDto } from '../../../../common/types';

/** The side panel section linking CRM contacts to a folder. */
export function FolderContactsSection(_props: { folder: FolderDto }) {
  return null;
}
