// src/features/uploads/resendFile.ts: sending a file of an uploader's Uppy again.
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { notStartedProgress, resendFile, type ResentFile } from '@src/features/uploads/resendFile';
import { allowConsoleError } from '../../consoleErrors';

function fakeUppy() {
  return {
    pauseResume: jest.fn((_id: string) => true),
    setFileState: jest.fn(),
    retryUpload: jest.fn(async (_id: string): Promise<unknown> => undefined),
  };
}

const file = (patch: Partial<ResentFile> = {}): ResentFile => ({
  id: 'uppy-a',
  size: 2048,
  isPaused: false,
  progress: { uploadComplete: false },
  ...patch,
});

describe('notStartedProgress', () => {
  it("is Uppy's progress of a file not started", () => {
    expect(notStartedProgress(2048)).toEqual({
      bytesTotal: 2048,
      uploadComplete: false,
      uploadStarted: null,
      bytesUploaded: false,
      percentage: 0,
    });
    expect(notStartedProgress(null).bytesTotal).toBeNull();
  });
});

describe('resendFile', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('resumes a file the stall watchdog paused, without a retry', () => {
    const uppy = fakeUppy();
    const arm = jest.fn();
    resendFile(uppy, file({ isPaused: true }), true, arm);
    expect(uppy.pauseResume).toHaveBeenCalledWith('uppy-a');
    expect(arm).toHaveBeenCalledWith('uppy-a');
    expect(uppy.retryUpload).not.toHaveBeenCalled();
    expect(uppy.setFileState).not.toHaveBeenCalled();
  });

  it('retries a failed file (also a stalled one no longer paused)', () => {
    for (const [wasStalled, isPaused] of [
      [false, false],
      [true, false],
      [false, true],
    ] as const) {
      const uppy = fakeUppy();
      const arm = jest.fn();
      resendFile(uppy, file({ isPaused }), wasStalled, arm);
      expect(uppy.pauseResume).not.toHaveBeenCalled();
      expect(uppy.setFileState).not.toHaveBeenCalled();
      expect(uppy.retryUpload).toHaveBeenCalledWith('uppy-a');
      expect(arm).toHaveBeenCalledWith('uppy-a');
    }
  });

  it('sends the bytes of a stored file whose record was refused again from the start', () => {
    const uppy = fakeUppy();
    resendFile(uppy, file({ progress: { uploadComplete: true } }), false, jest.fn());
    expect(uppy.setFileState).toHaveBeenCalledWith('uppy-a', {
      progress: notStartedProgress(2048),
      s3Multipart: undefined,
    });
    const [state] = uppy.setFileState.mock.calls[0]!.slice(1) as [Record<string, unknown>];
    expect(Object.keys(state)).toContain('s3Multipart');
    expect(uppy.retryUpload).toHaveBeenCalledWith('uppy-a');
  });

  it('logs a retry Uppy refuses instead of throwing', async () => {
    allowConsoleError(/^The upload could not be retried:/);
    const logged = jest.spyOn(console, 'error');
    const uppy = fakeUppy();
    uppy.retryUpload.mockRejectedValueOnce(new Error('gone'));
    expect(() => resendFile(uppy, file(), false, jest.fn())).not.toThrow();
    await Promise.resolve();
    await Promise.resolve();
    expect(logged).toHaveBeenCalledWith('The upload could not be retried:', expect.any(Error));
  });
});
