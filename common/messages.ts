/**
 * User-facing messages, worded exactly as SPEC.md section 8 (and sections 2 and 9 for the session
 * texts). Templates use `{name}` placeholders and are filled with {@link formatMessage}.
 */

export const MESSAGES = {
  couldNotGetDatabaseUsers: 'Could not get database users.',
  couldNotGetIntegrations: 'Could not get integrations.',
  invalidFileName: 'File name contains invalid characters',
  renameKeepsExtension: 'A file keeps its extension: this will be saved as “{name}”.',
  uploadStalled: 'Upload stalled for {seconds} seconds, aborting.',
  tooManyFiles: 'You can only upload {n} file(s).',
  fileTooLarge: '{file} exceeds maximum allowed size of {size}.',
  duplicateFile: "Cannot add the duplicate file '{fileName}', it already exists.",
  noInternet: 'No Internet connection.',
  uploadFailed: 'Failed to upload {file}.',
  sessionTimeoutTitle: 'Session timeout',
  sessionTimeoutText: 'Extend your session? You have {time} left.',
  sessionExtendedSso: 'Your session has been extended for 8 hours.',
  sessionExtended: 'Your session has been extended for 30 minutes.',
  // Sessions and maintenance mode, worded for this product.
  sessionTimedOut: 'You were signed out after a period of inactivity. Please sign in again.',
  signedOutInAnotherTab: 'You signed out in another tab.',
  maintenanceMode:
    'Dossier is down for maintenance. Changes cannot be saved right now; please try again later.',
  maintenanceTitle: 'Down for maintenance',
  maintenanceText:
    'Dossier is being updated and is not available right now. Your documents are safe; please come back later.',
  maintenanceSignIn: 'Dossier is down for maintenance. Administrators can still sign in.',
  maintenanceAdminBanner:
    'Maintenance mode is on: only administrators can use Dossier and make changes.',
  // Messages the spec leaves open, worded for this product.
  invalidCredentials: 'The username or password is incorrect.',
  notSignedIn: 'Please sign in.',
  /** A file read whose Range starts past the file's end (HTTP 416). */
  rangeNotSatisfiable: 'The requested range is not satisfiable.',
  notFound: 'Not found.',
  forbiddenOrigin: 'Request refused: it did not come from this site.',
  // Bodies sent "with filters" (SPEC section 7).
  unknownFilter: "Invalid request: {where} has an unknown filter '{key}' (known: {known}).",
  filterSentTwice: "Invalid request: '{key}' is sent both inside filters and beside it.",
  filterRequired: "Invalid request: the filter '{key}' is required.",
  internalError: 'Something went wrong on our side. Please try again.',
  nulCharacter: 'Invalid request: text may not contain the NUL character (\\u0000).',
  nonFiniteNumber: 'Invalid request: numbers must be finite.',
  invalidSignature: 'The upload link is invalid or has expired.',
  folderNameRequired: 'A folder name is required.',
  nameTooLong: 'The name is too long.',
  uploadNotComplete: 'The upload did not complete. Please try again.',
  fileNameRequired: 'A file name is required.',
  invalidName: 'Names cannot contain / or \\ or control characters.',
  // Upload restrictions and failures the spec leaves open.
  fileTooSmall: '{file} is smaller than the minimum allowed size of {size}',
  fileTypeNotAllowed: '{file} is not an allowed file type. Allowed: {types}',
  uploadChecksumMismatch: 'The stored file does not match the file that was sent.',
  uploadInterrupted: 'The upload was interrupted. Retry to continue.',
  // Organising, worded for this product.
  moveIntoItself: 'A folder cannot be moved into itself or one of its subfolders.',
  copyIntoItself: 'A folder cannot be copied into itself or one of its subfolders.',
  restoredToRoot: '{name} was restored to Root because its folder is archived or deleted.',
  tooManyItems: 'You can act on at most {n} items at once.',
  destroyNotArchived: 'Only archived items can be deleted permanently.',
  colorFoldersOnly: 'Only folders can be coloured.',
  unknownColor: 'Unknown colour.',
  // Sorting the folder view and zipping a selection, worded for this product.
  invalidSort: "Unknown sort '{value}': sort by one of {allowed}.",
  invalidOrder: "Unknown order '{value}': use one of {allowed}.",
  zipNothingSelected: 'Select at least one item to download.',
  tooManyCopies: 'You can make copies of at most {n} files at once.',
  zipLinkExpired: 'This download link has expired or was already used. Start the download again.',
  // Users, passwords and lockout, worded for this product.
  accountLocked:
    'This account is locked after too many failed sign-ins. Try again in {time} or ask an administrator to unlock it.',
  accountLockedUntilUnlocked:
    'This account is locked after too many failed sign-ins. Ask an administrator to unlock it.',
  passwordTooShort: 'The password must be at least {n} characters long.',
  passwordTooLong: 'The password must be at most {n} characters long.',
  passwordIsUsername: 'The password must not be the username.',
  passwordBlank: 'The password must not be only spaces.',
  passwordTooWeak:
    'This password is too easy to guess. {hint} A few uncommon words together make a strong password.',
  passwordTooWeakHint: 'Avoid common words, names, dates and repeated characters.',
  usernameTaken: 'That username is already taken.',
  usernameRequired: 'A username is required.',
  invalidEmail: 'The e-mail address is not valid.',
  lastAdmin: 'A firm needs at least one administrator: make another member an administrator first.',
  disableSelf: 'You cannot disable your own account.',
  sharedUserCredentials:
    'This member also belongs to another firm where you are not an administrator, so you cannot change their username, e-mail or password.',
} as const;

/**
 * Fills a `{placeholder}` template with values.
 * @param template text with at least one `{name}` placeholder
 * @param values replacement per placeholder name; a missing value leaves the placeholder as is
 * @returns the filled text
 * @throws Error when the template has no placeholder (SPEC section 8: "A string-formatting helper
 *   fails if its template has no placeholder").
 */
export function formatMessage(template: string, values: Record<string, string | number>): string {
  if (!/\{[A-Za-z0-9_]+\}/.test(template)) {
    throw new Error(`formatMessage: template has no placeholder: "${template}"`);
  }
  return template.replace(/\{([A-Za-z0-9_]+)\}/g, (whole, key: string) =>
    Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : whole,
  );
}
