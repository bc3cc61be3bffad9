import { describe, expect, it } from '@jest/globals';
import { pickedFromDataTransfer, pickedFromFileList } from '@src/features/uploads/pickedFiles';
import { fakeFile } from './fakeUploader';

function item(file: File, entry?: { isDirectory: boolean } | null) {
  return {
    kind: 'file',
    getAsFile: () => file,
    ...(entry === undefined ? {} : { webkitGetAsEntry: () => entry }),
  };
}

function transfer(items: unknown[], files: File[] = []): DataTransfer {
  return { items, files, types: ['Files'] } as unknown as DataTransfer;
}

describe('pickedFiles', () => {
  it('uses webkitGetAsEntry to tell directories apart', () => {
    const folder = fakeFile('Statements', 4096, '');
    const pdf = fakeFile('a.pdf', 0, '');
    const picked = pickedFromDataTransfer(
      transfer([item(folder, { isDirectory: true }), item(pdf, { isDirectory: false })]),
    );
    expect(picked.map((p) => [p.file.name, p.isDirectory])).toEqual([
      ['Statements', true],
      ['a.pdf', false],
    ]);
  });

  it('without webkitGetAsEntry, treats size 0 and no type as a directory', () => {
    const picked = pickedFromDataTransfer(
      transfer([item(fakeFile('Folder', 0, '')), item(fakeFile('b.txt', 0, 'text/plain'))]),
    );
    expect(picked.map((p) => p.isDirectory)).toEqual([true, false]);
  });

  it('skips non-file items and falls back to files when there are no items', () => {
    const text = { kind: 'string', getAsFile: () => null };
    expect(pickedFromDataTransfer(transfer([text]))).toEqual([]);
    const picked = pickedFromDataTransfer(
      transfer([], [fakeFile('c.pdf'), fakeFile('Dir', 0, '')]),
    );
    expect(picked.map((p) => [p.file.name, p.isDirectory])).toEqual([
      ['c.pdf', false],
      ['Dir', true],
    ]);
  });

  it('reads a file input', () => {
    expect(pickedFromFileList([fakeFile('a.pdf')])).toEqual([
      { file: expect.any(File), isDirectory: false },
    ]);
    expect(pickedFromFileList(null)).toEqual([]);
  });
});
