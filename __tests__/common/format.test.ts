import { describe, expect, it } from '@jest/globals';
import {
  DEFAULT_DATE_FORMAT,
  formatDate,
  formatSize,
  formatSizesApart,
  relativeDate,
} from '@common/format';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('formatSize (SPEC section 9)', () => {
  it.each([
    [0, '0 KB'],
    [null, '0 KB'],
    [undefined, '0 KB'],
    [-5, '0 KB'],
    [Number.NaN, '0 KB'],
    [1, '0.1 KB'],
    [14, '0.1 KB'],
    [200, '0.2 KB'],
    [1024, '1.0 KB'],
    [1536, '1.5 KB'],
    [1_048_575, '1.0 MB'],
    [1_048_576, '1.0 MB'],
    [1_572_864, '1.5 MB'],
    [104_857_600, '100.0 MB'],
    [1024 ** 3, '1.0 GB'],
    [2.5 * 1024 ** 3, '2.5 GB'],
    [1024 ** 4, '1.0 TB'],
    [1024 ** 5, '1.0 PB'],
    [1024 ** 6, '1024.0 PB'],
  ])('shows %p bytes as %j', (bytes, text) => {
    expect(formatSize(bytes)).toBe(text);
  });
});

describe('formatSizesApart', () => {
  it.each([
    [2048, 1024, '2.0 KB', '1.0 KB'],
    [1024, 1024, '1.0 KB', '1.0 KB'],
    [0, 14, '0 KB', '0.1 KB'],
    [104_868_086, 104_857_600, '100.01 MB', '100.00 MB'],
    [1025, 1024, '1.001 KB', '1.000 KB'],
    [10, 20, '0.01 KB', '0.02 KB'],
    [104_857_601, 104_857_600, '104,857,601 bytes', '104,857,600 bytes'],
    [1024 ** 3 + 1, 1024 ** 3, '1,073,741,825 bytes', '1,073,741,824 bytes'],
  ])('shows %p and %p bytes as %j and %j', (a, b, textA, textB) => {
    expect(formatSizesApart(a, b)).toEqual([textA, textB]);
  });

  it('never shows two different positive sizes the same', () => {
    for (const [a, b] of [
      [1, 2],
      [104_857_600, 104_857_599],
      [5 * 1024 ** 4 + 3, 5 * 1024 ** 4],
    ] as const) {
      const [textA, textB] = formatSizesApart(a, b);
      expect(textA).not.toBe(textB);
    }
  });
});

describe('formatDate', () => {
  it('uses month abbreviation, day, year, hour:minute am/pm in local time', () => {
    expect(DEFAULT_DATE_FORMAT).toBe('MMM D, YYYY h:mm a');
    expect(formatDate('2024-03-05T14:07:00')).toBe('Mar 5, 2024 2:07 pm');
    expect(formatDate('2024-12-25T00:30:00')).toBe('Dec 25, 2024 12:30 am');
  });

  it('reads UTC timestamps into local time', () => {
    const local = new Date(2024, 5, 15, 9, 5);
    expect(formatDate(local.toISOString())).toBe('Jun 15, 2024 9:05 am');
  });

  it('gives an empty text for missing or invalid values', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
});

describe('relativeDate (SPEC section 9)', () => {
  const now = new Date(2024, 5, 15, 12, 0);
  const ago = (ms: number): string => new Date(now.getTime() - ms).toISOString();

  it("shows 'Just Now' under one day", () => {
    expect(relativeDate(ago(0), now)).toBe('Just Now');
    expect(relativeDate(ago(5 * 60_000), now)).toBe('Just Now');
    expect(relativeDate(ago(23 * HOUR + 59 * 60_000), now)).toBe('Just Now');
    expect(relativeDate(ago(-2 * HOUR), now)).toBe('Just Now');
  });

  it('shows a relative phrase for one and two days', () => {
    expect(relativeDate(ago(DAY), now)).toBe('a day ago');
    expect(relativeDate(ago(DAY + 20 * HOUR), now)).toBe('a day ago');
    expect(relativeDate(ago(2 * DAY), now)).toBe('2 days ago');
    expect(relativeDate(ago(2 * DAY + 23 * HOUR), now)).toBe('2 days ago');
    expect(relativeDate(ago(-2 * DAY), now)).toBe('in 2 days');
  });

  it('shows the absolute date from three days on', () => {
    expect(relativeDate(ago(3 * DAY), now)).toBe(formatDate(ago(3 * DAY)));
    expect(relativeDate(ago(3 * DAY), now)).toBe('Jun 12, 2024 12:00 pm');
    expect(relativeDate('2023-01-02T08:15:00', now)).toBe('Jan 2, 2023 8:15 am');
  });

  it('accepts epoch milliseconds as the reference', () => {
    expect(relativeDate(ago(DAY), now.getTime())).toBe('a day ago');
  });

  it('gives an empty text for missing or invalid values', () => {
    expect(relativeDate('', now)).toBe('');
    expect(relativeDate(null, now)).toBe('');
    expect(relativeDate('garbage', now)).toBe('');
  });
});
