// Session timing helpers shared by client and server (SPEC sections 2 and 9).
import { describe, expect, it } from '@jest/globals';
import {
  SESSION_COUNTDOWN_MS,
  SESSION_MINUTES,
  SESSION_WARNING_MS,
  SSO_SESSION_MINUTES,
  SSO_SESSION_WARNING_MS,
} from '@common/constants';
import {
  countdownLengthMs,
  formatCountdown,
  switchableDatabases,
  sessionExtendedText,
  warningDelayMs,
} from '@common/session';

describe('session timing', () => {
  it('warns SESSION_COUNTDOWN_MS before the idle limit: the spec’s 1,680,000 and 28,680,000 ms', () => {
    expect(warningDelayMs(SESSION_MINUTES * 60_000)).toBe(SESSION_WARNING_MS);
    expect(warningDelayMs(SSO_SESSION_MINUTES * 60_000)).toBe(SSO_SESSION_WARNING_MS);
    expect(SESSION_WARNING_MS).toBe(1_680_000);
    expect(SSO_SESSION_WARNING_MS).toBe(28_680_000);
    expect(countdownLengthMs(SESSION_MINUTES * 60_000)).toBe(SESSION_COUNTDOWN_MS);
  });

  it('shortens the countdown only for sessions shorter than it', () => {
    expect(warningDelayMs(90_000)).toBe(0);
    expect(countdownLengthMs(90_000)).toBe(90_000);
  });

  it('formats the time left as m:ss', () => {
    expect(formatCountdown(120_000)).toBe('2:00');
    expect(formatCountdown(119_000)).toBe('1:59');
    expect(formatCountdown(61_000)).toBe('1:01');
    expect(formatCountdown(9_000)).toBe('0:09');
    expect(formatCountdown(500)).toBe('0:01');
    expect(formatCountdown(0)).toBe('0:00');
    expect(formatCountdown(-5)).toBe('0:00');
    expect(formatCountdown(3_723_000)).toBe('1:02:03');
  });

  it('picks the confirmation text by session length', () => {
    expect(sessionExtendedText(480)).toBe('Your session has been extended for 8 hours.');
    expect(sessionExtendedText(30)).toBe('Your session has been extended for 30 minutes.');
  });
});

describe('switchableDatabases (SPEC section 3 "Database")', () => {
  const db = (id: string, description: string | null) => ({ id, description });
  it('keeps only databases with a description, in order', () => {
    expect(
      switchableDatabases([db('a', 'A'), db('b', null), db('c', ' '), db('d', 'D')], 'a').map(
        (d) => d.id,
      ),
    ).toEqual(['a', 'd']);
  });
  it('removes duplicates by (trimmed) description, keeping the current one, else the first', () => {
    const list = [db('a', 'Same'), db('b', 'Same '), db('c', 'Other')];
    expect(switchableDatabases(list, 'c').map((d) => d.id)).toEqual(['a', 'c']);
    expect(switchableDatabases(list, 'b').map((d) => d.id)).toEqual(['b', 'c']);
    expect(switchableDatabases(list, null).map((d) => d.id)).toEqual(['a', 'c']);
  });
});
