import { describe, expect, it } from '@jest/globals';
import { DEFAULT_UPLOAD_RESTRICTIONS } from '@common/uploads';
import { validateUploads } from '@src/features/uploads/validateUploads';

const file = (name: string, size = 10, isDirectory = false) => ({ name, size, isDirectory });

describe('validateUploads', () => {
  it('accepts ordinary files, keeping their order', () => {
    const result = validateUploads([file('a.pdf'), file('b.xlsx'), file('ÿ-Latin1.txt')]);
    expect(result.accepted.map((item) => item.name)).toEqual(['a.pdf', 'b.xlsx', 'ÿ-Latin1.txt']);
    expect(result.rejected).toEqual([]);
  });

  it("refuses a name outside ISO-8859-1 with 'File name contains invalid characters'", () => {
    const result = validateUploads([file('Invoice Ā.pdf'), file('report 📄.pdf')]);
    expect(result.rejected.map((item) => item.reason)).toEqual([
      'File name contains invalid characters',
      'File name contains invalid characters',
    ]);
  });

  it('refuses a file over the maximum with the spec message', () => {
    const result = validateUploads([file('big.zip', 104_857_601), file('max.zip', 104_857_600)]);
    expect(result.rejected).toEqual([
      {
        candidate: file('big.zip', 104_857_601),
        reason: 'big.zip (104,857,601 bytes) exceeds maximum allowed size of 104,857,600 bytes.',
      },
    ]);
    expect(result.accepted.map((item) => item.name)).toEqual(['max.zip']);
  });

  it('refuses a duplicate within one upload (case-insensitive) and keeps the first', () => {
    const result = validateUploads([file('Report.pdf'), file('report.PDF'), file('other.pdf')]);
    expect(result.accepted.map((item) => item.name)).toEqual(['Report.pdf', 'other.pdf']);
    expect(result.rejected.map((item) => item.reason)).toEqual([
      "Cannot add the duplicate file 'report.PDF', it already exists.",
    ]);
  });

  it('treats names still uploading into the folder as duplicates', () => {
    const result = validateUploads([file('a.pdf')], { pendingNames: ['A.pdf'] });
    expect(result.rejected[0]!.reason).toBe(
      "Cannot add the duplicate file 'a.pdf', it already exists.",
    );
  });

  it('refuses a directory', () => {
    const result = validateUploads([file('Statements', 0, true)]);
    expect(result.accepted).toEqual([]);
    expect(result.rejected[0]!.reason).toBe('Statements is a folder. Only files can be uploaded.');
  });

  it('checks the name before the size', () => {
    const result = validateUploads([file('Ā.pdf', 200_000_000)]);
    expect(result.rejected[0]!.reason).toBe('File name contains invalid characters');
  });
});

describe('validateUploads with restrictions', () => {
  const restrictions = {
    ...DEFAULT_UPLOAD_RESTRICTIONS,
    max_number_of_files: 3,
    min_file_size: 100,
    allowed_file_types: ['.pdf', 'image/*'],
  };

  it("refuses files beyond the count with 'You can only upload {n} file(s).'", () => {
    const result = validateUploads([file('a.pdf', 200), file('b.pdf', 200), file('c.pdf', 200)], {
      restrictions,
      countInUse: 1,
    });
    expect(result.accepted.map((item) => item.name)).toEqual(['a.pdf', 'b.pdf']);
    expect(result.rejected).toEqual([
      { candidate: file('c.pdf', 200), reason: 'You can only upload 3 file(s).' },
    ]);
  });

  it('does not count refused files toward the count', () => {
    const result = validateUploads(
      [file('x.exe', 200), file('a.pdf', 200), file('tiny.pdf', 5), file('b.png', 200)],
      { restrictions, countInUse: 1 },
    );
    expect(result.accepted.map((item) => item.name)).toEqual(['a.pdf', 'b.png']);
  });

  it('refuses a file under the minimum size and of another type with their messages', () => {
    const result = validateUploads([file('tiny.pdf', 99), file('notes.txt', 200)], {
      restrictions,
    });
    expect(result.rejected.map((item) => item.reason)).toEqual([
      'tiny.pdf is smaller than the minimum allowed size of 0.1 KB',
      'notes.txt is not an allowed file type. Allowed: .pdf, image/*',
    ]);
  });

  it('checks the maximum of the restrictions', () => {
    const result = validateUploads([file('big.pdf', 2048)], {
      restrictions: { ...restrictions, max_file_size: 1024 },
    });
    expect(result.rejected[0]!.reason).toBe('big.pdf exceeds maximum allowed size of 1.0 KB.');
  });
});
