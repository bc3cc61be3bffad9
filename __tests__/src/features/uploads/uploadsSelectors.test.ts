import { describe, expect, it } from '@jest/globals';
import { DEFAULT_UPLOAD_RESTRICTIONS } from '@common/uploads';
import {
  secondsLeftOf,
  selectActiveUploadNamesByFolder,
  selectFailedUploadIds,
  selectIsUploading,
  selectUploadCountInUse,
  selectUploadRestrictions,
  selectUploadTotals,
} from '@src/features/uploads/uploadsSelectors';
import type { UploadItem } from '@src/features/uploads/uploadsSlice';
import { rootReducer, type RootState } from '@src/store/rootReducer';

function item(overrides: Partial<UploadItem>): UploadItem {
  return {
    id: 'u',
    name: 'a.pdf',
    size: 100,
    folderId: '',
    status: 'queued',
    bytesUploaded: 0,
    progressAt: null,
    progressBytes: 0,
    speed: null,
    error: null,
    detail: null,
    fileId: null,
    savedName: null,
    versionOf: null,
    ...overrides,
  };
}

function stateWith(files: UploadItem[], invalid = 0, totalCount?: number): RootState {
  const initial = rootReducer(undefined, { type: 'test/init' });
  return {
    ...initial,
    uploads: {
      ...initial.uploads,
      files,
      totalCount: totalCount ?? files.length + invalid,
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
      speed: 50,
    }),
    item({ id: '3', status: 'failed', size: 100, bytesUploaded: 20 }),
    item({ id: '4', status: 'cancelled', size: 1000 }),
  ];

  it('counts per status and computes progress, speed and time left (cancelled excluded)', () => {
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
      speed: 50,
      secondsLeft: 4,
    });
  });

  it('reports the total file count of the state', () => {
    expect(selectUploadTotals(stateWith(files, 0, 9)).total).toBe(9);
  });

  it('answers no speed or time left while nothing is measured', () => {
    const totals = selectUploadTotals(stateWith([item({ status: 'uploading', bytesUploaded: 5 })]));
    expect([totals.speed, totals.secondsLeft]).toEqual([null, null]);
  });

  it('computes one file’s time left', () => {
    expect(secondsLeftOf(files[1]!)).toBe(4);
    expect(secondsLeftOf(item({ status: 'uploading' }))).toBeNull();
    expect(secondsLeftOf(item({ status: 'failed', speed: 10 }))).toBeNull();
  });

  it('knows whether uploads run (waiting for the connection counts)', () => {
    expect(selectIsUploading(stateWith(files))).toBe(true);
    expect(selectIsUploading(stateWith([files[0]!]))).toBe(false);
    expect(selectIsUploading(stateWith([item({ status: 'waiting' })]))).toBe(true);
  });

  it('lists the running names per folder', () => {
    expect(selectActiveUploadNamesByFolder(stateWith(files))).toEqual({ f1: ['b.pdf'] });
  });

  it('lists the failed ids and counts the files held toward the count restriction', () => {
    expect(selectFailedUploadIds(stateWith(files))).toEqual(['3']);
    expect(selectUploadCountInUse(stateWith(files))).toBe(2);
  });

  it('answers the defaults until the server’s restrictions are loaded', () => {
    expect(selectUploadRestrictions(stateWith([]))).toEqual(DEFAULT_UPLOAD_RESTRICTIONS);
  });
});
