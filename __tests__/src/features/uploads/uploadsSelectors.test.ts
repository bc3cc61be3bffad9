import { describe, expect, it } from '@jest/globals';
import {
  selectActiveUploadNamesByFolder,
  selectIsUploading,
  selectUploadTotals,
} from '../../../../src/features/uploads/uploadsSelectors';
import type { UploadItem } from '../../../../src/features/uploads/uploadsSlice';
import { rootReducer, type RootState } from '../../../../src/store/rootReducer';

function item(overrides: Partial<UploadItem>): UploadItem {
  return {
    id: 'u',
    name: 'a.pdf',
    size: 100,
    folderId: '',
    status: 'queued',
    bytesUploaded: 0,
    error: null,
    detail: null,
    fileId: null,
    ...overrides,
  };
}

function stateWith(files: UploadItem[], invalid = 0): RootState {
  const initial = rootReducer(undefined, { type: 'test/init' });
  return {
    ...initial,
    uploads: {
      ...initial.uploads,
      files,
      invalid: Array.from({ length: invalid }, (_, i) => ({
        id: `i${i}`,
        name: 'x',
        size: 1,
        reason: 'r',
      })),
    },
  };
}

describe('uploads selectors', () => {
  const files = [
    item({ id: '1', status: 'complete', size: 100 }),
    item({
      id: '2',
      status: 'uploading',
      size: 300,
      bytesUploaded: 100,
      folderId: 'f1',
      name: 'b.pdf',
    }),
    item({ id: '3', status: 'failed', size: 100, bytesUploaded: 20 }),
    item({ id: '4', status: 'cancelled', size: 1000 }),
  ];

  it('counts per status and computes the overall progress (cancelled files excluded)', () => {
    expect(selectUploadTotals(stateWith(files, 2))).toEqual({
      total: 6,
      active: 1,
      complete: 1,
      failed: 1,
      cancelled: 1,
      invalid: 2,
      bytesTotal: 500,
      bytesUploaded: 220,
      percent: 44,
    });
  });

  it('knows whether uploads run', () => {
    expect(selectIsUploading(stateWith(files))).toBe(true);
    expect(selectIsUploading(stateWith([files[0]!]))).toBe(false);
  });

  it('lists the running names per folder', () => {
    expect(selectActiveUploadNamesByFolder(stateWith(files))).toEqual({ f1: ['b.pdf'] });
  });
});
