/**
 * Upload texts the spec leaves open, worded for this product. The spec's own texts come from
 * common/messages.ts through the helpers of common/files.ts.
 */

/** Reason shown for a dropped folder (SPEC section 5: "a directory drop is rejected"). */
export const DIRECTORY_REJECTED = '{name} is a folder. Only files can be uploaded.';

/** Reason shown when the uploader refused a file for a reason of its own. */
export const UPLOADER_REFUSED = '{name} could not be added to the upload.';
