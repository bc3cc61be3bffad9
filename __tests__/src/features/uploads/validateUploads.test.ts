import { describe, expect, it } from '@jest/globals';
import { validateUploads } from '../../../../src/features/uploads/validateUploads';

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
        reason: 'big.zip exceeds maximum allowed size of 100.0 MB',
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
