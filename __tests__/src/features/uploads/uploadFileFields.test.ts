// src/features/uploads/uploadFileFields.ts: what the uploaders tell Uppy and the server of a file.
import { describe, expect, it } from '@jest/globals';
import { createUploadFields, localUppyFile } from '@src/features/uploads/uploadFileFields';

describe('localUppyFile', () => {
  it("keeps the browser's type, else takes the extension's", () => {
    const typed = new File(['x'], 'scan.bin', { type: 'image/png' });
    expect(localUppyFile(typed, { folderId: 'f1' })).toEqual({
      name: 'scan.bin',
      type: 'image/png',
      data: typed,
      source: 'Local',
      isRemote: false,
      meta: { folderId: 'f1' },
    });
    const untyped = new File(['x'], 'Statement.PDF');
    expect(localUppyFile(untyped, {}).type).toBe('application/pdf');
    expect(localUppyFile(untyped, {}).name).toBe('Statement.PDF');
  });
});

describe('createUploadFields', () => {
  it('trims the name and derives the lowercased extension and its content type', () => {
    expect(createUploadFields({ name: '  Report.DOCX ', size: 1234 })).toEqual({
      name: 'Report.DOCX',
      extension: 'docx',
      content_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      size: 1234,
    });
  });

  it('gives size 0 when Uppy does not know it, and no extension for a bare name', () => {
    expect(createUploadFields({ name: 'README', size: null })).toEqual({
      name: 'README',
      extension: '',
      content_type: 'application/octet-stream',
      size: 0,
    });
  });
});
