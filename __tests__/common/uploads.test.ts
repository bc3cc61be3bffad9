import { describe, expect, it } from '@jest/globals';
import {
  DEFAULT_UPLOAD_RESTRICTIONS,
  fileTooSmallMessage,
  fileTypeMessage,
  isAllowedFileType,
  normalizeAllowedType,
  tooManyFilesMessage,
  usesMultipart,
  validateRestrictedFile,
} from '@common/uploads';

describe('upload restrictions', () => {
  it('has the documented defaults', () => {
    expect(DEFAULT_UPLOAD_RESTRICTIONS).toEqual({
      max_file_size: 104_857_600,
      min_file_size: 0,
      max_number_of_files: 100,
      allowed_file_types: [],
      multipart_threshold: 10_485_760,
      part_size: 10_485_760,
    });
  });

  it('normalises configured types', () => {
    expect(['PDF', '.Docx', ' image/* ', 'Application/PDF', ''].map(normalizeAllowedType)).toEqual([
      '.pdf',
      '.docx',
      'image/*',
      'application/pdf',
      '',
    ]);
  });

  it('allows by extension, exact content type or wildcard; an empty list allows all', () => {
    expect(isAllowedFileType('a.exe', [])).toBe(true);
    expect(isAllowedFileType('Report.PDF', ['.pdf'])).toBe(true);
    expect(isAllowedFileType('Report.pdf', ['application/pdf'])).toBe(true);
    expect(isAllowedFileType('scan.tiff', ['image/*'])).toBe(true);
    expect(isAllowedFileType('notes.txt', ['image/*', '.pdf'])).toBe(false);
    expect(isAllowedFileType('README', ['.pdf'])).toBe(false);
    expect(isAllowedFileType('README', ['application/octet-stream'])).toBe(true);
  });

  it('words the messages, sizes in the spec format', () => {
    expect(tooManyFilesMessage(1)).toBe('You can only upload 1 file(s).');
    expect(tooManyFilesMessage(100)).toBe('You can only upload 100 file(s).');
    expect(fileTooSmallMessage('a.pdf', 2048)).toBe(
      'a.pdf is smaller than the minimum allowed size of 2.0 KB',
    );
    expect(fileTypeMessage('a.exe', ['PDF', 'image/*'])).toBe(
      'a.exe is not an allowed file type. Allowed: .pdf, image/*',
    );
  });

  it('checks the minimum size first, then the type', () => {
    const restrictions = { min_file_size: 10, allowed_file_types: ['.pdf'] };
    expect(validateRestrictedFile({ name: 'a.exe', size: 1 }, restrictions)).toBe(
      'a.exe is smaller than the minimum allowed size of 0.1 KB',
    );
    expect(validateRestrictedFile({ name: 'a.exe', size: 10 }, restrictions)).toBe(
      'a.exe is not an allowed file type. Allowed: .pdf',
    );
    expect(validateRestrictedFile({ name: 'a.pdf', size: 10 }, restrictions)).toBeNull();
  });

  it('sends files strictly over the threshold by multipart, never an empty one', () => {
    const restrictions = { multipart_threshold: 100 };
    expect([0, 100, 101].map((size) => usesMultipart(size, restrictions))).toEqual([
      false,
      false,
      true,
    ]);
    expect(usesMultipart(0, { multipart_threshold: 0 })).toBe(false);
  });
});
