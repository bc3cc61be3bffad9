// Event channels of the session timeout: the countdown and throttled user input.
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { END } from 'redux-saga';
import { countdownChannel, throttledEventChannel } from '@src/sagas/channels';

function collect(channel: { take(cb: (value: unknown) => void): void }, into: unknown[]) {
  const next = () =>
    channel.take((value) => {
      into.push(value);
      if (value !== END) next();
    });
  next();
}

describe('countdownChannel', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('emits the time left every step down to 0, then ends', () => {
    const values: unknown[] = [];
    collect(countdownChannel(5_000, 1_000), values);
    jest.advanceTimersByTime(4_000);
    expect(values).toEqual([4_000, 3_000, 2_000, 1_000]);
    jest.advanceTimersByTime(1_000);
    expect(values).toEqual([4_000, 3_000, 2_000, 1_000, 0, END]);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('counts real time when ticks come late (a throttled tab)', () => {
    const values: unknown[] = [];
    collect(countdownChannel(120_000, 1_000), values);
    jest.setSystemTime(Date.now() + 60_000);
    jest.advanceTimersByTime(1_000);
    expect(values).toEqual([59_000]);
  });

  it('stops its timer when closed', () => {
    const channel = countdownChannel(5_000, 1_000);
    channel.close();
    expect(jest.getTimerCount()).toBe(0);
  });
});

describe('throttledEventChannel', () => {
  beforeEach(() => {
    jest.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('emits at most one event time per interval and stops listening when closed', () => {
    const target = new EventTarget();
    const channel = throttledEventChannel(target, ['mousemove', 'keydown'], 1_000);
    const values: unknown[] = [];
    collect(channel, values);
    target.dispatchEvent(new Event('mousemove'));
    target.dispatchEvent(new Event('keydown'));
    jest.advanceTimersByTime(999);
    target.dispatchEvent(new Event('mousemove'));
    jest.advanceTimersByTime(1);
    target.dispatchEvent(new Event('keydown'));
    target.dispatchEvent(new Event('click'));
    expect(values).toEqual([1_000_000, 1_001_000]);
    channel.close();
    jest.advanceTimersByTime(5_000);
    target.dispatchEvent(new Event('mousemove'));
    expect(values).toEqual([1_000_000, 1_001_000, END]);
  });
});
