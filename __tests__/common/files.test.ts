import { describe, expect, it } from '@jest/globals';
import { DEFAULT_CONTENT_TYPE, MAX_FILE_SIZE_BYTES } from '@common/constants';
import {
  FILE_CATEGORIES,
  FILE_KIND_EXTENSIONS,
  contentTypeFor,
  duplicateMessage,
  fileTooLargeMessage,
  fileCategory,
  fileKind,
  isInlinePreviewable,
  previewContentType,
  previewKind,
  isIso88591,
  validateUploadFile,
  validateUploadName,
} from '@common/files';
import { MESSAGES } from '@common/messages';

describe('isIso88591', () => {
  it('accepts Latin-1 text up to U+00FF', () => {
    expect(isIso88591('')).toBe(true);
    expect(isIso88591('Statement 2024.pdf')).toBe(true);
    expect(isIso88591('Résumé Ærø ß.docx')).toBe(true);
    expect(isIso88591('\u00ff')).toBe(true);
    expect(isIso88591('ÿ.txt')).toBe(true);
  });

  it('refuses anything above U+00FF', () => {
    expect(isIso88591('\u0100')).toBe(false);
    expect(isIso88591('Ā.txt')).toBe(false);
    expect(isIso88591('report 📄.pdf')).toBe(false);
    expect(isIso88591('€')).toBe(false);
    expect(isIso88591('文件.pdf')).toBe(false);
  });
});

describe('validateUploadName (SPEC section 5)', () => {
  it('accepts ISO-8859-1 names', () => {
    expect(validateUploadName('ÿ.pdf')).toBeNull();
    expect(validateUploadName('Q1 report (final).xlsx')).toBeNull();
  });

  it("refuses other characters with 'File name contains invalid characters'", () => {
    expect(MESSAGES.invalidFileName).toBe('File name contains invalid characters');
    expect(validateUploadName('Ā.pdf')).toBe(MESSAGES.invalidFileName);
    expect(validateUploadName('😀.png')).toBe(MESSAGES.invalidFileName);
    expect(validateUploadName('a/b.pdf')).toBe(MESSAGES.invalidFileName);
    expect(validateUploadName('..')).toBe(MESSAGES.invalidFileName);
  });

  it('refuses empty and overlong names', () => {
    expect(validateUploadName('')).toBe(MESSAGES.fileNameRequired);
    expect(validateUploadName(`${'a'.repeat(300)}.pdf`)).toBe(MESSAGES.nameTooLong);
  });
});

describe('contentTypeFor (SPEC section 5)', () => {
  it.each([
    ['pdf', 'application/pdf'],
    ['PDF', 'application/pdf'],
    ['.pdf', 'application/pdf'],
    ['.JPG', 'image/jpeg'],
    ['png', 'image/png'],
    ['txt', 'text/plain'],
    ['csv', 'text/csv'],
    ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['mp4', 'video/mp4'],
  ])('gives %j the type %j', (extension, type) => {
    expect(contentTypeFor(extension)).toBe(type);
  });

  it.each([
    ['xls', 'application/vnd.ms-excel'],
    ['ppt', 'application/vnd.ms-powerpoint'],
    ['pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
    ['odt', 'application/vnd.oasis.opendocument.text'],
    ['avi', 'video/x-msvideo'],
    ['svg', 'image/svg+xml'],
    ['html', 'text/html'],
    ['gz', 'application/gzip'],
    ['zip', 'application/zip'],
  ])('gives %j the type %j', (extension, type) => {
    expect(contentTypeFor(extension)).toBe(type);
  });

  it('knows a type for every extension the product classifies', () => {
    for (const extension of Object.values(FILE_KIND_EXTENSIONS).flat()) {
      expect([extension, contentTypeFor(extension)]).not.toEqual([extension, DEFAULT_CONTENT_TYPE]);
    }
  });

  it('defaults to application/octet-stream', () => {
    expect(DEFAULT_CONTENT_TYPE).toBe('application/octet-stream');
    expect(contentTypeFor('')).toBe(DEFAULT_CONTENT_TYPE);
    expect(contentTypeFor('.')).toBe(DEFAULT_CONTENT_TYPE);
    expect(contentTypeFor('nosuchextension')).toBe(DEFAULT_CONTENT_TYPE);
  });
});

describe('fileCategory (SPEC section 3)', () => {
  const expected: [string, string[]][] = [
    ['Video', ['avi', 'mov', 'mp4']],
    ['Image', ['gif', 'jpg', 'jpeg', 'png', 'tif', 'tiff']],
    ['Document', ['txt', 'doc', 'docx']],
    ['PDF', ['pdf']],
    ['Spreadsheet', ['xls', 'xlsx', 'csv']],
    ['Audio', ['mp3', 'wav']],
    ['Presentation', ['ppt', 'pptx']],
  ];

  it('lists exactly the spec categories', () => {
    expect(Object.entries(FILE_CATEGORIES)).toEqual(expected);
  });

  it.each(expected.flatMap(([category, exts]) => exts.map((ext) => [ext, category])))(
    'puts %j in %j',
    (ext, category) => {
      expect(fileCategory(ext)).toBe(category);
      expect(fileCategory(ext.toUpperCase())).toBe(category);
      expect(fileCategory(`.${ext}`)).toBe(category);
    },
  );

  it.each(['', 'zip', 'gz', 'rtf', 'svg', 'bmp', 'odt', 'mkv', 'exe'])(
    'puts %j in Other',
    (ext) => {
      expect(fileCategory(ext)).toBe('Other');
    },
  );
});

describe('fileKind', () => {
  it('is folder for a folder, with or without extension', () => {
    expect(fileKind({ type: 'folder' })).toBe('folder');
    expect(fileKind({ type: 'folder', extension: 'pdf' })).toBe('folder');
  });

  it.each([
    ['pdf', 'pdf'],
    ['PDF', 'pdf'],
    ['jpg', 'image'],
    ['tiff', 'image'],
    ['bmp', 'image'],
    ['svg', 'image'],
    ['webp', 'image'],
    ['heic', 'image'],
    ['mov', 'movie'],
    ['mkv', 'movie'],
    ['webm', 'movie'],
    ['m4v', 'movie'],
    ['wmv', 'movie'],
    ['txt', 'text'],
    ['docx', 'text'],
    ['rtf', 'text'],
    ['odt', 'text'],
    ['epub', 'text'],
    ['html', 'text'],
    ['htm', 'text'],
    ['md', 'text'],
    ['xlsx', 'spreadsheet'],
    ['csv', 'spreadsheet'],
    ['ods', 'spreadsheet'],
    ['tsv', 'spreadsheet'],
    ['mp3', 'audio'],
    ['ogg', 'audio'],
    ['m4a', 'audio'],
    ['flac', 'audio'],
    ['aac', 'audio'],
    ['pptx', 'presentation'],
    ['odp', 'presentation'],
    ['key', 'presentation'],
    ['gz', 'other'],
    ['tar', 'other'],
    ['zip', 'other'],
    ['exe', 'other'],
    ['', 'other'],
  ])('gives a .%s file the kind %j', (extension, kind) => {
    expect(fileKind({ type: 'file', extension })).toBe(kind);
  });

  it('treats a file without extension as other', () => {
    expect(fileKind({ type: 'file' })).toBe('other');
  });

  it('covers every spec category extension', () => {
    const kinds = {
      Video: 'movie',
      Image: 'image',
      Document: 'text',
      PDF: 'pdf',
      Spreadsheet: 'spreadsheet',
      Audio: 'audio',
      Presentation: 'presentation',
    } as const;
    for (const [category, exts] of Object.entries(FILE_CATEGORIES)) {
      for (const extension of exts) {
        expect(fileKind({ type: 'file', extension })).toBe(kinds[category as keyof typeof kinds]);
      }
    }
  });

  it('has no extension in two kinds', () => {
    const all = Object.values(FILE_KIND_EXTENSIONS).flat();
    expect(new Set(all).size).toBe(all.length);
  });
});

describe('previewKind and isInlinePreviewable', () => {
  it.each([
    ['application/pdf', 'pdf'],
    ['APPLICATION/PDF', 'pdf'],
    ['image/png', 'image'],
    ['image/jpeg', 'image'],
    ['image/png; charset=binary', 'image'],
    ['image/webp', 'image'],
    // Only Safari draws TIFF: elsewhere an inline TIFF would be a download.
    ['image/tiff', null],
    ['image/svg+xml', null],
    ['IMAGE/SVG+XML', null],
    ['text/html', null],
    ['text/html; charset=utf-8', null],
    ['text/plain', 'text'],
    ['text/csv', 'text'],
    ['application/json', 'text'],
    ['video/mp4', 'video'],
    ['video/webm', 'video'],
    ['video/quicktime', null],
    ['video/x-msvideo', null],
    ['audio/mpeg', 'audio'],
    ['audio/wav', 'audio'],
    ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', null],
    ['application/octet-stream', null],
    ['', null],
  ])('%j: %j', (type, kind) => {
    expect(previewKind(type)).toBe(kind);
    expect(isInlinePreviewable(type)).toBe(kind !== null);
  });

  it('previews every corpus type the product names as a preview kind by its extension', () => {
    expect(previewKind(contentTypeFor('mp3'))).toBe('audio');
    expect(previewKind(contentTypeFor('mp4'))).toBe('video');
    expect(previewKind(contentTypeFor('csv'))).toBe('text');
    expect(previewKind(contentTypeFor('jpg'))).toBe('image');
    expect(previewKind(contentTypeFor('docx'))).toBeNull();
    expect(previewKind(contentTypeFor('html'))).toBeNull();
  });
});

describe('previewContentType', () => {
  it('serves text kinds as UTF-8 plain text and leaves the others alone', () => {
    expect(previewContentType('text/csv')).toBe('text/plain; charset=utf-8');
    expect(previewContentType('application/json')).toBe('text/plain; charset=utf-8');
    expect(previewContentType('text/plain')).toBe('text/plain; charset=utf-8');
    expect(previewContentType('video/mp4')).toBe('video/mp4');
    expect(previewContentType('application/pdf')).toBe('application/pdf');
  });
});

describe('validateUploadFile (SPEC sections 5 and 8)', () => {
  it('accepts a file up to the maximum size, empty files included', () => {
    expect(MAX_FILE_SIZE_BYTES).toBe(104_857_600);
    expect(validateUploadFile({ name: 'a.pdf', size: MAX_FILE_SIZE_BYTES })).toBeNull();
    expect(validateUploadFile({ name: 'a.pdf', size: 0 })).toBeNull();
  });

  it('refuses a file over the maximum size', () => {
    expect(validateUploadFile({ name: 'big.mov', size: MAX_FILE_SIZE_BYTES + 1 })).toBe(
      'big.mov (104,857,601 bytes) exceeds maximum allowed size of 104,857,600 bytes.',
    );
  });

  it('uses a custom maximum', () => {
    expect(validateUploadFile({ name: 'a.txt', size: 2048 }, 1024)).toBe(
      'a.txt exceeds maximum allowed size of 1.0 KB.',
    );
    expect(validateUploadFile({ name: 'a.txt', size: 1024 }, 1024)).toBeNull();
  });

  it('ends the message with its period and tells a file just over the limit from the limit', () => {
    // One decimal already differs: the spec's words with the limit alone.
    expect(fileTooLargeMessage('big.mov', 110 * 1024 * 1024, MAX_FILE_SIZE_BYTES)).toBe(
      'big.mov exceeds maximum allowed size of 100.0 MB.',
    );
    // Both would show "100.0 MB": two decimals, the file's size after its name.
    expect(fileTooLargeMessage('huge.pdf', MAX_FILE_SIZE_BYTES + 10_486, MAX_FILE_SIZE_BYTES)).toBe(
      'huge.pdf (100.01 MB) exceeds maximum allowed size of 100.00 MB.',
    );
    // Still the same with three decimals: exact bytes.
    expect(fileTooLargeMessage('huge.pdf', MAX_FILE_SIZE_BYTES + 1, MAX_FILE_SIZE_BYTES)).toBe(
      'huge.pdf (104,857,601 bytes) exceeds maximum allowed size of 104,857,600 bytes.',
    );
    // The file's size unknown: the limit alone.
    expect(fileTooLargeMessage('The file', null, MAX_FILE_SIZE_BYTES)).toBe(
      'The file exceeds maximum allowed size of 100.0 MB.',
    );
    expect(validateUploadFile({ name: 'a.txt', size: 1025 }, 1024)).toBe(
      'a.txt (1.001 KB) exceeds maximum allowed size of 1.000 KB.',
    );
  });

  it('reports invalid characters first', () => {
    expect(validateUploadFile({ name: 'Ā.pdf', size: MAX_FILE_SIZE_BYTES + 1 })).toBe(
      MESSAGES.invalidFileName,
    );
  });
});

describe('duplicateMessage', () => {
  it('words the duplicate-file refusal as SPEC section 8', () => {
    expect(duplicateMessage('a.pdf')).toBe(
      "Cannot add the duplicate file 'a.pdf', it already exists.",
    );
  });
});
