// src/features/uploads/progressThrottle.ts: which progress events are passed on.
import { describe, expect, it } from '@jest/globals';
import { ProgressThrottle } from '@src/features/uploads/progressThrottle';

const T0 = 1_700_000_000_000;

describe('ProgressThrottle', () => {
  it('passes one event per interval and file, and always the last one', () => {
    const throttle = new ProgressThrottle(250);
    expect(throttle.pass('a', 10, 100, T0)).toBe(true);
    expect(throttle.pass('a', 20, 100, T0 + 249)).toBe(false);
    expect(throttle.pass('b', 20, 100, T0 + 249)).toBe(true);
    expect(throttle.pass('a', 30, 100, T0 + 250)).toBe(true);
    // Measured from the last one passed on, not the last one seen.
    expect(throttle.pass('a', 40, 100, T0 + 400)).toBe(false);
    expect(throttle.pass('a', 100, 100, T0 + 401)).toBe(true);
  });

  it('passes the next event of a forgotten file, or of any file after clear', () => {
    const throttle = new ProgressThrottle(250);
    throttle.pass('a', 1, 100, T0);
    throttle.pass('b', 1, 100, T0);
    throttle.forget('a');
    expect(throttle.pass('a', 2, 100, T0 + 1)).toBe(true);
    expect(throttle.pass('b', 2, 100, T0 + 1)).toBe(false);
    throttle.clear();
    expect(throttle.pass('b', 3, 100, T0 + 2)).toBe(true);
  });

  it('with a zero interval passes every event', () => {
    const throttle = new ProgressThrottle(0);
    expect(throttle.pass('a', 1, 100, T0)).toBe(true);
    expect(throttle.pass('a', 2, 100, T0)).toBe(true);
  });
});
