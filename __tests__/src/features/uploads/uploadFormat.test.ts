import { describe, expect, it } from '@jest/globals';
import { formatSpeed, formatTimeLeft } from '@src/features/uploads/uploadFormat';
import {
  clearFailedUploads,
  collectFailedUpload,
  failedUpload,
  failedUploads,
  forgetFailedUpload,
} from '@src/features/uploads/failedUploads';
import { fakeFile } from './fakeUploader';

describe('upload speed and time left', () => {
  it('shows the speed in the size format per second', () => {
    expect(formatSpeed(1536)).toBe('1.5 KB/s');
    expect(formatSpeed(3 * 1024 * 1024)).toBe('3.0 MB/s');
  });

  it('shows seconds, minutes, then hours and minutes', () => {
    expect(formatTimeLeft(0)).toBe('0 s left');
    expect(formatTimeLeft(4.2)).toBe('5 s left');
    expect(formatTimeLeft(59)).toBe('59 s left');
    expect(formatTimeLeft(61)).toBe('2 min left');
    expect(formatTimeLeft(3600)).toBe('1 h left');
    expect(formatTimeLeft(3900)).toBe('1 h 5 min left');
  });
});

describe('failed uploads collection', () => {
  it('keeps error, response and file per id, outside the store', () => {
    clearFailedUploads();
    const file = fakeFile('a.pdf');
    const error = new Error('S3 returned 500');
    collectFailedUpload('u1', { error, response: { status: 500, body: '' }, file });
    collectFailedUpload('u2', { error: new Error('x'), response: null, file: null });
    expect(failedUpload('u1')).toEqual({ error, response: { status: 500, body: '' }, file });
    expect([...failedUploads().keys()]).toEqual(['u1', 'u2']);
    forgetFailedUpload('u1');
    expect(failedUpload('u1')).toBeUndefined();
    clearFailedUploads();
    expect(failedUploads().size).toBe(0);
  });
});
