/**
 * Names of files and folders: splitting off the extension, the case-insensitive comparison key,
 * unique names with a "(n)" counter, and the rules a name must follow. Used by the client (forms,
 * uploads) and the server (the authority) alike. Sources: SPEC.md sections 3 and 5.
 */
import { MAX_NAME_LENGTH } from './constants';
import { formatMessage, MESSAGES } from './messages';

/** A file name split at its last dot. */
export interface SplitName {
  /** Everything before the last dot (the whole name when there is no extension). */
  base: string;
  /** The part after the last dot, lowercased; '' when there is none. */
  extension: string;
}

/** Index of the dot that starts the extension, or -1 (no dot, or only a leading dot). */
function extensionDot(fileName: string): number {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? dot : -1;
}

/**
 * Splits a file name into base and extension (SPEC section 3: "extension: the part after the last
 * dot, lowercased").
 *
 * - "REPORT.PDF" gives { base: "REPORT", extension: "pdf" }
 * - "archive.tar.gz" gives { base: "archive.tar", extension: "gz" }
 * - ".env" (leading dot only) gives { base: ".env", extension: "" }
 * - "a." (trailing dot) gives { base: "a", extension: "" }
 * - "README" gives { base: "README", extension: "" }
 *
 * @param fileName the name as given, not trimmed
 * @returns base and lowercased extension; never throws
 */
export function splitFileName(fileName: string): SplitName {
  const dot = extensionDot(fileName);
  if (dot < 0) return { base: fileName, extension: '' };
  return { base: fileName.slice(0, dot), extension: fileName.slice(dot + 1).toLowerCase() };
}

/**
 * The case-insensitive comparison key of a name (SPEC section 5: "The comparison is
 * case-insensitive"). It is `String.prototype.toLowerCase()` of the name as given: no trimming and
 * no Unicode normalisation, locale-independent. The server must compare with this same key (note
 * that SQLite's `lower()` only folds ASCII, so store or compute this key in JavaScript).
 *
 * @param name any name
 * @returns the lowercased name
 */
export function nameKey(name: string): string {
  return name.toLowerCase();
}

/** Options of {@link uniqueName}. */
export interface UniqueNameOptions {
  /** True for a file name: the counter goes before the extension ("a (1).pdf"). */
  isFile?: boolean;
}

/**
 * Makes a name unique among existing names (SPEC section 5): when the name already exists,
 * compared case-insensitively with {@link nameKey}, a space and a counter in parentheses is
 * appended, using the first free counter from 1: "Reports" gives "Reports (1)", then
 * "Reports (2)". For files the counter goes before the extension: "a.pdf" gives "a (1).pdf" (the
 * extension keeps its original case). The counter is appended to the name as given, so
 * "Reports (1)" becomes "Reports (1) (1)" when taken. When the result would exceed
 * {@link MAX_NAME_LENGTH}, the base is shortened to make room for the counter.
 *
 * Runs in O(existing + tries): the existing names are lowercased into a Set once.
 *
 * @param name the wanted name (used as is; trim it first)
 * @param existing the names already present in the same folder, any case
 * @param options `isFile` to place the counter before the extension
 * @returns `name` itself when free, otherwise the first free numbered variant
 */
export function uniqueName(
  name: string,
  existing: Iterable<string>,
  options: UniqueNameOptions = {},
): string {
  const taken = new Set<string>();
  for (const item of existing) taken.add(nameKey(item));
  if (!taken.has(nameKey(name))) return name;

  const dot = options.isFile ? extensionDot(name) : -1;
  const base = dot < 0 ? name : name.slice(0, dot);
  const suffix = dot < 0 ? '' : name.slice(dot);
  for (let counter = 1; ; counter += 1) {
    const tag = ` (${counter})`;
    const room = Math.max(0, MAX_NAME_LENGTH - tag.length - suffix.length);
    const candidate = `${base.length > room ? base.slice(0, room) : base}${tag}${suffix}`;
    if (!taken.has(nameKey(candidate))) return candidate;
  }
}

/** True when the text holds a C0 or C1 control character (U+0000-U+001F, U+007F-U+009F). */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code <= 0x1f || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

/**
 * True when a name holds a character no file or folder name may hold: '/', '\\', or a control
 * character; or when the trimmed name is exactly '.' or '..'.
 *
 * @param name the name to check
 * @returns true when the name is refused for its characters
 */
export function hasInvalidNameCharacters(name: string): boolean {
  const trimmed = name.trim();
  return (
    trimmed === '.' ||
    trimmed === '..' ||
    name.includes('/') ||
    name.includes('\\') ||
    hasControlCharacter(name)
  );
}

/** Which kind of entity a name belongs to; only changes the "required" message. */
export type NamedEntityKind = 'folder' | 'file';

/**
 * Checks the name of a folder or file (product rules; SPEC section 5 leaves them open). The name
 * is trimmed first, and the first failing rule wins:
 * 1. empty: MESSAGES.folderNameRequired (or MESSAGES.fileNameRequired for files);
 * 2. longer than {@link MAX_NAME_LENGTH} UTF-16 code units: MESSAGES.nameTooLong;
 * 3. '/', '\\', a control character, or exactly '.' or '..': MESSAGES.invalidName.
 * Upload file names have an extra ISO-8859-1 rule: see `validateUploadName` in files.ts.
 *
 * @param name the name as typed
 * @param kind 'folder' (default) or 'file'
 * @returns the error message text, or null when the name is valid; never throws
 */
export function validateEntityName(name: string, kind: NamedEntityKind = 'folder'): string | null {
  const trimmed = name.trim();
  if (trimmed === '') {
    return kind === 'file' ? MESSAGES.fileNameRequired : MESSAGES.folderNameRequired;
  }
  if (trimmed.length > MAX_NAME_LENGTH) return MESSAGES.nameTooLong;
  if (hasInvalidNameCharacters(trimmed)) return MESSAGES.invalidName;
  return null;
}

/**
 * The name a file rename saves (SPEC section 5; the server's `requestedName`): the trimmed name,
 * with `.<extension>` appended when it does not end in the file's own extension ("Jan" →
 * "Jan.pdf", "smile.jpg" → "smile.jpg.bmp").
 * @param name the name typed
 * @param extension the file's lowercased extension without the dot ('' when none)
 */
export function fileNameKeepingExtension(name: string, extension: string): string {
  const wanted = name.trim();
  if (!extension || splitFileName(wanted).extension === extension) return wanted;
  return `${wanted}.${extension}`;
}

/**
 * What a rename editor tells before saving, or null: a typed name that ends in another extension
 * than the file's gets the file's appended, so the editor says the name that will be saved.
 * @param name the name typed
 * @param extension the file's lowercased extension ('' for a folder or a file without one)
 */
export function renameExtensionNotice(name: string, extension: string): string | null {
  const typed = splitFileName(name.trim()).extension;
  if (!extension || typed === '' || typed === extension) return null;
  return formatMessage(MESSAGES.renameKeepsExtension, {
    name: fileNameKeepingExtension(name, extension),
  });
}
