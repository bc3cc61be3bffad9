import { describe, expect, it } from '@jest/globals';
import { MAX_NAME_LENGTH } from '@common/constants';
import { MESSAGES } from '@common/messages';
import {
  fileNameKeepingExtension,
  hasInvalidNameCharacters,
  renameExtensionNotice,
  nameKey,
  splitFileName,
  uniqueName,
  validateEntityName,
} from '@common/names';

describe('splitFileName', () => {
  it.each([
    ['report.pdf', 'report', 'pdf'],
    ['REPORT.PDF', 'REPORT', 'pdf'],
    ['archive.tar.gz', 'archive.tar', 'gz'],
    ['README', 'README', ''],
    ['.env', '.env', ''],
    ['a.', 'a', ''],
    ['', '', ''],
    ['my.file.Name.DocX', 'my.file.Name', 'docx'],
  ])('splits %j into %j and %j', (name, base, extension) => {
    expect(splitFileName(name)).toEqual({ base, extension });
  });
});

describe('fileNameKeepingExtension and renameExtensionNotice', () => {
  it("keeps a file's extension and says so when another one was typed", () => {
    expect(fileNameKeepingExtension(' Jan ', 'pdf')).toBe('Jan.pdf');
    expect(fileNameKeepingExtension('Jan.PDF', 'pdf')).toBe('Jan.PDF');
    expect(fileNameKeepingExtension('smile.jpg', 'bmp')).toBe('smile.jpg.bmp');
    expect(fileNameKeepingExtension('notes', '')).toBe('notes');
    expect(renameExtensionNotice('smile.jpg', 'bmp')).toBe(
      'A file keeps its extension: this will be saved as “smile.jpg.bmp”.',
    );
    expect(renameExtensionNotice('smile', 'bmp')).toBeNull();
    expect(renameExtensionNotice('smile.BMP', 'bmp')).toBeNull();
    expect(renameExtensionNotice('v1.2', '')).toBeNull();
  });
});

describe('nameKey', () => {
  it('compares names case-insensitively', () => {
    expect(nameKey('Reports')).toBe('reports');
    expect(nameKey('RÉSUMÉ.PDF')).toBe(nameKey('résumé.pdf'));
    expect(nameKey('a')).not.toBe(nameKey('b'));
  });
});

describe('uniqueName', () => {
  it('keeps a free name unchanged', () => {
    expect(uniqueName('Reports', ['Clients', 'Archive'])).toBe('Reports');
    expect(uniqueName('Reports', [])).toBe('Reports');
  });

  it('appends (1), then (2), comparing case-insensitively (SPEC section 5)', () => {
    expect(uniqueName('Reports', ['Reports'])).toBe('Reports (1)');
    expect(uniqueName('Reports', ['reports'])).toBe('Reports (1)');
    expect(uniqueName('Reports', ['REPORTS', 'reports (1)'])).toBe('Reports (2)');
    expect(uniqueName('reports', ['Reports', 'Reports (1)', 'Reports (2)'])).toBe('reports (3)');
  });

  it('uses the first free counter', () => {
    expect(uniqueName('Reports', ['Reports', 'Reports (2)'])).toBe('Reports (1)');
  });

  it('appends to the name as given', () => {
    expect(uniqueName('Reports (1)', ['Reports', 'Reports (1)'])).toBe('Reports (1) (1)');
  });

  it('puts the counter before the extension of a file', () => {
    expect(uniqueName('a.pdf', ['A.PDF'], { isFile: true })).toBe('a (1).pdf');
    expect(uniqueName('a.pdf', ['a.pdf', 'a (1).pdf'], { isFile: true })).toBe('a (2).pdf');
    expect(uniqueName('Scan.JPG', ['scan.jpg'], { isFile: true })).toBe('Scan (1).JPG');
    expect(uniqueName('archive.tar.gz', ['archive.tar.gz'], { isFile: true })).toBe(
      'archive.tar (1).gz',
    );
  });

  it('appends at the end for files without extension and for folders with dots', () => {
    expect(uniqueName('README', ['readme'], { isFile: true })).toBe('README (1)');
    expect(uniqueName('.env', ['.env'], { isFile: true })).toBe('.env (1)');
    expect(uniqueName('v1.2', ['v1.2'])).toBe('v1.2 (1)');
  });

  it('accepts any iterable, such as a Set', () => {
    expect(uniqueName('x', new Set(['x', 'X (1)']))).toBe('x (2)');
  });

  it('handles 100,000 existing names', () => {
    const existing = [
      'Reports',
      ...Array.from({ length: 100_000 }, (_, i) => `Reports (${i + 1})`),
    ];
    expect(uniqueName('Reports', existing)).toBe('Reports (100001)');
  });

  it('shortens the base so that the result stays within the name limit', () => {
    const long = `${'x'.repeat(MAX_NAME_LENGTH - 4)}.pdf`;
    const result = uniqueName(long, [long], { isFile: true });
    expect(result).toHaveLength(MAX_NAME_LENGTH);
    expect(result.endsWith(' (1).pdf')).toBe(true);
  });
});

describe('validateEntityName', () => {
  it('accepts ordinary names', () => {
    expect(validateEntityName('Reports 2024')).toBeNull();
    expect(validateEntityName('  Reports  ')).toBeNull();
    expect(validateEntityName('Café ☕', 'file')).toBeNull();
    expect(validateEntityName('...hidden')).toBeNull();
  });

  it('requires a name', () => {
    expect(validateEntityName('')).toBe(MESSAGES.folderNameRequired);
    expect(validateEntityName('   ')).toBe(MESSAGES.folderNameRequired);
    expect(validateEntityName(' ', 'file')).toBe(MESSAGES.fileNameRequired);
  });

  it('limits the length after trimming', () => {
    expect(validateEntityName('x'.repeat(MAX_NAME_LENGTH))).toBeNull();
    expect(validateEntityName(` ${'x'.repeat(MAX_NAME_LENGTH)} `)).toBeNull();
    expect(validateEntityName('x'.repeat(MAX_NAME_LENGTH + 1))).toBe(MESSAGES.nameTooLong);
  });

  it.each(['a/b', 'a\\b', 'tab\there', 'nul\u0000', 'del\u007f', 'c1\u0085', '.', '..', ' .. '])(
    'refuses %j',
    (name) => {
      expect(validateEntityName(name)).toBe(MESSAGES.invalidName);
      expect(hasInvalidNameCharacters(name)).toBe(true);
    },
  );

  it('words the invalid-name message', () => {
    expect(MESSAGES.invalidName).toBe('Names cannot contain / or \\ or control characters.');
  });
});
