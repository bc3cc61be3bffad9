// src/features/uploads/uploadFailureMessages.ts: the messages of failed uploads.
import { describe, expect, it } from '@jest/globals';
import { MESSAGES } from '@common/messages';
import { ApiError } from '@src/api/client';
import { stallMessage, uploadErrorMessage } from '@src/features/uploads/uploadFailureMessages';

describe('uploadErrorMessage', () => {
  it("takes the store's JSON message from the reply body", () => {
    const error = Object.assign(new Error('S3 returned 403'), {
      status: 403,
      body: '  {"message":"The upload link is invalid or has expired."}',
    });
    expect(uploadErrorMessage(error)).toBe('The upload link is invalid or has expired.');
  });

  it("falls back to the error's text for a body that is not JSON or has no message", () => {
    const xml = Object.assign(new Error('S3 returned 403'), { body: '<Error>Denied</Error>' });
    expect(uploadErrorMessage(xml)).toBe('S3 returned 403');
    const broken = Object.assign(new Error('S3 returned 500'), { body: '{not json' });
    expect(uploadErrorMessage(broken)).toBe('S3 returned 500');
    const empty = Object.assign(new Error('S3 returned 400'), { body: '{"message":""}' });
    expect(uploadErrorMessage(empty)).toBe('S3 returned 400');
  });

  it("gives an API error's message, and the generic one for anything else", () => {
    expect(uploadErrorMessage(new ApiError(409, 'conflict', 'Name taken.'))).toBe('Name taken.');
    expect(uploadErrorMessage(null)).toBe(MESSAGES.internalError);
    expect(uploadErrorMessage('boom')).toBe(MESSAGES.internalError);
  });
});

describe('stallMessage', () => {
  it('names the timeout in whole seconds', () => {
    expect(stallMessage(30_000)).toBe('Upload stalled for 30 seconds, aborting.');
    expect(stallMessage(1_600)).toBe('Upload stalled for 2 seconds, aborting.');
  });
});
