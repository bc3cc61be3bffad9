import { describe, expect, it } from '@jest/globals';
import { resolveLanding } from '@src/app/landing';

describe('resolveLanding', () => {
  it('accepts exactly the two landing values of SPEC section 2', () => {
    expect(resolveLanding('home')).toBe('/home');
    expect(resolveLanding('/sharing/shared')).toBe('/sharing/shared');
  });

  it('falls back to home for anything else', () => {
    for (const value of [
      null,
      undefined,
      '',
      'Home',
      '/home',
      '/history',
      'https://evil.example',
      '/sharing/shared/',
      ' home',
    ]) {
      expect(resolveLanding(value)).toBe('/home');
    }
  });
});
