/** The bulk toolbar action applying index values to the selected files (issue 9). */

/** The bulk toolbar action applying index values to the selected files. */
export function BulkApplyIndexButton(_props: { fileIds: string[] }) {
  return null;
}
