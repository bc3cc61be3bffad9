/**
 * File rules and classifications: upload name and size checks, content types, the file-type
 * categories of the statistics, icon kinds and inline-preview safety. Sources: SPEC.md sections 3,
 * 5 and 8.
 */
import { Mime } from 'mime/lite';
import standardTypes from 'mime/types/standard.js';
import { DEFAULT_CONTENT_TYPE, MAX_FILE_SIZE_BYTES } from './constants';
import { formatSize, formatSizesApart } from './format';
import { MESSAGES, formatMessage } from './messages';
import { hasInvalidNameCharacters, validateEntityName } from './names';

/** Lowercases an extension and drops one leading dot: ".PDF" and "PDF" both give "pdf". */
function normalizeExtension(extension: string | null | undefined): string {
  const text = (extension ?? '').trim().toLowerCase();
  return text.startsWith('.') ? text.slice(1) : text;
}

/**
 * True when every UTF-16 code unit of the text is at most 0xFF, i.e. the text fits ISO-8859-1
 * (Latin-1). "ÿ" (U+00FF) passes; "Ā" (U+0100) and any emoji fail.
 *
 * @param text any text
 * @returns whether the text is ISO-8859-1 (the empty text is)
 */
export function isIso88591(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    if (text.charCodeAt(i) > 0xff) return false;
  }
  return true;
}

/**
 * Checks the name of a file to upload (SPEC section 5: "A file name containing a character outside
 * ISO-8859-1 is refused with the message 'File name contains invalid characters'"). The same
 * message is given for '/', '\\', control characters and the names '.' and '..'. An empty or too
 * long name gives the messages of `validateEntityName` (MESSAGES.fileNameRequired,
 * MESSAGES.nameTooLong).
 *
 * @param name the file name including its extension
 * @returns the error message text, or null when the name is acceptable; never throws
 */
export function validateUploadName(name: string): string | null {
  if (!isIso88591(name) || hasInvalidNameCharacters(name)) return MESSAGES.invalidFileName;
  return validateEntityName(name, 'file');
}

/**
 * Content types that `mime/lite`'s standard table lacks (it leaves out vendor types) but that the
 * product's own extensions need: the Office and OpenDocument formats and the other extensions of
 * {@link FILE_CATEGORIES} and {@link FILE_KIND_EXTENSIONS}. Values as in the full `mime` table.
 */
const PRODUCT_CONTENT_TYPES = {
  'application/vnd.ms-excel': ['xls'],
  'application/vnd.ms-powerpoint': ['ppt'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['docx'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['xlsx'],
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': ['pptx'],
  'application/vnd.oasis.opendocument.text': ['odt'],
  'application/vnd.oasis.opendocument.spreadsheet': ['ods'],
  'application/vnd.oasis.opendocument.presentation': ['odp'],
  'application/vnd.apple.keynote': ['key'],
  'application/vnd.ms-outlook': ['msg'],
  'application/x-tar': ['tar'],
  'image/vnd.microsoft.icon': ['ico'],
  'video/x-msvideo': ['avi'],
  'video/x-matroska': ['mkv'],
  'video/x-m4v': ['m4v'],
  'video/x-ms-wmv': ['wmv'],
  'audio/x-flac': ['flac'],
};

/** Standard types plus {@link PRODUCT_CONTENT_TYPES}; module-private, never redefined. */
const mime = new Mime(standardTypes, PRODUCT_CONTENT_TYPES);

/**
 * Content type of a file from its extension (SPEC section 5: "Content type derives from the file
 * extension, defaulting to application/octet-stream"), looked up in `mime/lite`'s standard table
 * completed with the Office, OpenDocument and other vendor types the product's extensions need.
 *
 * @param extension the extension, any case, with or without a leading dot ("PDF", ".pdf")
 * @returns e.g. "application/pdf"; DEFAULT_CONTENT_TYPE when unknown or empty
 */
export function contentTypeFor(extension: string): string {
  const ext = normalizeExtension(extension);
  if (ext === '') return DEFAULT_CONTENT_TYPE;
  return mime.getType(ext) ?? DEFAULT_CONTENT_TYPE;
}

/** A file-type category of the statistics (SPEC section 3). */
export type FileCategory =
  'Video' | 'Image' | 'Document' | 'PDF' | 'Spreadsheet' | 'Audio' | 'Presentation' | 'Other';

/**
 * The extensions of each file-type category, exactly as SPEC section 3 lists them; every other
 * extension is 'Other'. Order is the display order.
 */
export const FILE_CATEGORIES = {
  Video: ['avi', 'mov', 'mp4'],
  Image: ['gif', 'jpg', 'jpeg', 'png', 'tif', 'tiff'],
  Document: ['txt', 'doc', 'docx'],
  PDF: ['pdf'],
  Spreadsheet: ['xls', 'xlsx', 'csv'],
  Audio: ['mp3', 'wav'],
  Presentation: ['ppt', 'pptx'],
} as const satisfies Record<Exclude<FileCategory, 'Other'>, readonly string[]>;

const CATEGORY_BY_EXTENSION = new Map<string, FileCategory>(
  (
    Object.entries(FILE_CATEGORIES) as [Exclude<FileCategory, 'Other'>, readonly string[]][]
  ).flatMap(([category, extensions]) => extensions.map((ext) => [ext, category] as const)),
);

/**
 * The file-type category of an extension (SPEC section 3), as used by the file statistics.
 *
 * @param extension the extension, any case, with or without a leading dot
 * @returns the category; 'Other' for any extension not listed in {@link FILE_CATEGORIES}
 */
export function fileCategory(extension: string): FileCategory {
  return CATEGORY_BY_EXTENSION.get(normalizeExtension(extension)) ?? 'Other';
}

/** Icon kinds of files and folders (SPEC section 3). */
export type FileKind =
  | 'folder'
  | 'image'
  | 'movie'
  | 'text'
  | 'pdf'
  | 'spreadsheet'
  | 'audio'
  | 'presentation'
  | 'other';

/**
 * Extensions of each icon kind: the SPEC section 3 category lists plus the conversion and preview
 * extensions of SPEC section 5 and common siblings.
 * - image: the Image category plus bmp, svg, webp, heic, heif, ico
 * - movie: the Video category plus mkv, webm, m4v, wmv
 * - text: the Document category plus rtf, odt, epub, html, htm, md
 * - pdf: pdf
 * - spreadsheet: the Spreadsheet category plus ods, tsv
 * - audio: the Audio category plus ogg, m4a, flac, aac
 * - presentation: the Presentation category plus odp, key
 * Everything else, archives (zip, gz, tar) included, is 'other'.
 */
export const FILE_KIND_EXTENSIONS = {
  image: [...FILE_CATEGORIES.Image, 'bmp', 'svg', 'webp', 'heic', 'heif', 'ico'],
  movie: [...FILE_CATEGORIES.Video, 'mkv', 'webm', 'm4v', 'wmv'],
  text: [...FILE_CATEGORIES.Document, 'rtf', 'odt', 'epub', 'html', 'htm', 'md'],
  pdf: [...FILE_CATEGORIES.PDF],
  spreadsheet: [...FILE_CATEGORIES.Spreadsheet, 'ods', 'tsv'],
  audio: [...FILE_CATEGORIES.Audio, 'ogg', 'm4a', 'flac', 'aac'],
  presentation: [...FILE_CATEGORIES.Presentation, 'odp', 'key'],
} as const satisfies Record<Exclude<FileKind, 'folder' | 'other'>, readonly string[]>;

const KIND_BY_EXTENSION = new Map<string, FileKind>(
  (Object.entries(FILE_KIND_EXTENSIONS) as [FileKind, readonly string[]][]).flatMap(
    ([kind, extensions]) => extensions.map((ext) => [ext, kind] as const),
  ),
);

/**
 * The icon kind of a file or folder (SPEC section 3). A folder is always 'folder' (SPEC: "An item
 * with no extension is a Folder"); a file is classified by its extension with
 * {@link FILE_KIND_EXTENSIONS}, and a file without a known extension (or with none) is 'other'.
 *
 * @param entity the item's type and, for a file, its extension (any case, with or without a dot)
 * @returns the icon kind
 */
export function fileKind(entity: { type: 'file' | 'folder'; extension?: string | null }): FileKind {
  if (entity.type === 'folder') return 'folder';
  return KIND_BY_EXTENSION.get(normalizeExtension(entity.extension)) ?? 'other';
}

/**
 * How a browser shows a file served inline (Content-Disposition: inline): its own PDF viewer, an
 * image, its media player, or plain text.
 */
export type PreviewKind = 'pdf' | 'image' | 'video' | 'audio' | 'text';

/**
 * The content types a preview serves inline, by kind: only types Chromium, Firefox and Safari
 * show themselves and that cannot run script. Not TIFF (only Safari draws it), not SVG or HTML
 * (they can carry scripts), not QuickTime or AVI (most browsers cannot play them). The text types
 * are served as UTF-8 plain text ({@link previewContentType}), so none of them is rendered.
 */
const PREVIEW_KINDS: ReadonlyMap<string, PreviewKind> = new Map<string, PreviewKind>([
  ['application/pdf', 'pdf'],
  ...[
    'image/png',
    'image/jpeg',
    'image/gif',
    'image/webp',
    'image/bmp',
    'image/avif',
    'image/vnd.microsoft.icon',
    'image/x-icon',
  ].map((type): [string, PreviewKind] => [type, 'image']),
  ...['video/mp4', 'video/webm', 'video/ogg'].map((type): [string, PreviewKind] => [type, 'video']),
  ...[
    'audio/mpeg',
    'audio/wav',
    'audio/x-wav',
    'audio/ogg',
    'audio/webm',
    'audio/mp4',
    'audio/aac',
    'audio/flac',
    'audio/x-flac',
  ].map((type): [string, PreviewKind] => [type, 'audio']),
  ...[
    'text/plain',
    'text/csv',
    'text/tab-separated-values',
    'text/markdown',
    'application/json',
  ].map((type): [string, PreviewKind] => [type, 'text']),
]);

/** A content type's bare type: lowercased, without parameters (";charset=..."). */
function bareType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * How a stored file is previewed, or null when the browser cannot show it safely (a preview of
 * it would be a download).
 *
 * @param contentType the file's content type, any case, parameters allowed
 * @returns the preview kind, or null
 */
export function previewKind(contentType: string): PreviewKind | null {
  return PREVIEW_KINDS.get(bareType(contentType)) ?? null;
}

/**
 * Whether a stored file may be served inline for preview and print ({@link previewKind} is not
 * null): PDF, the images and media browsers show, and plain text. SVG, HTML and every other type
 * are served as attachments.
 *
 * @param contentType a content type, any case, parameters (";charset=...") allowed
 * @returns true when the file can be previewed
 */
export function isInlinePreviewable(contentType: string): boolean {
  return previewKind(contentType) !== null;
}

/**
 * The Content-Type of an inline preview: text kinds as `text/plain; charset=utf-8` (a browser
 * downloads text/csv, and renders nothing as markup then), every other type unchanged.
 *
 * @param contentType the file's content type
 * @returns the type to send with the preview
 */
export function previewContentType(contentType: string): string {
  return previewKind(contentType) === 'text' ? 'text/plain; charset=utf-8' : contentType;
}

/**
 * The message refusing a file over the maximum size, in SPEC section 8's words: "{file} exceeds
 * maximum allowed size of {size}." The limit is shown as `formatSize` shows it ("big.mov exceeds
 * maximum allowed size of 100.0 MB."). When the file's own size would show the same as the limit
 * (a file just over it, which the upload list shows as "100.0 MB" too), both are shown with the
 * precision that tells them apart (`formatSizesApart`), the file's after its name:
 * "huge.pdf (104,857,601 bytes) exceeds maximum allowed size of 104,857,600 bytes."
 *
 * @param fileName the file name as shown to the user
 * @param fileBytes the file's size in bytes, or null when it is not known (the limit alone)
 * @param maxBytes the largest accepted size in bytes
 * @returns the message text; never throws
 */
export function fileTooLargeMessage(
  fileName: string,
  fileBytes: number | null,
  maxBytes: number,
): string {
  const limit = formatSize(maxBytes);
  if (fileBytes === null || formatSize(fileBytes) !== limit) {
    return formatMessage(MESSAGES.fileTooLarge, { file: fileName, size: limit });
  }
  const [fileText, limitText] = formatSizesApart(fileBytes, maxBytes);
  return formatMessage(MESSAGES.fileTooLarge, {
    file: `${fileName} (${fileText})`,
    size: limitText,
  });
}

/**
 * Checks one file before it is uploaded; the first failing rule wins:
 * 1. the name (see {@link validateUploadName}): MESSAGES.invalidFileName and friends;
 * 2. the size over the maximum (SPEC sections 5 and 8): {@link fileTooLargeMessage}.
 * A file of exactly `maxBytes` is accepted; an empty file is accepted.
 *
 * @param file the file's name (with extension) and size in bytes
 * @param maxBytes the largest accepted size in bytes; MAX_FILE_SIZE_BYTES by default
 * @returns the error message text, or null when the file may be uploaded; never throws
 */
export function validateUploadFile(
  file: { name: string; size: number },
  maxBytes: number = MAX_FILE_SIZE_BYTES,
): string | null {
  const nameError = validateUploadName(file.name);
  if (nameError) return nameError;
  if (file.size > maxBytes) return fileTooLargeMessage(file.name, file.size, maxBytes);
  return null;
}

/**
 * The message refusing a duplicate file in one upload (SPEC section 8): "Cannot add the duplicate
 * file '{fileName}', it already exists."
 *
 * @param fileName the file name as shown to the user
 * @returns the message text
 */
export function duplicateMessage(fileName: string): string {
  return formatMessage(MESSAGES.duplicateFile, { fileName });
}
