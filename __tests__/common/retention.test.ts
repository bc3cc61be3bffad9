import { describe, expect, it } from '@jest/globals';
import {
  addPeriod,
  type RetentionPeriod,
  type RetentionPeriodUnit,
  basisText,
  dayOf,
  formatDay,
  isDay,
  periodAtLeast,
  periodText,
  recordsMessage,
  RECORDS_MESSAGES,
  scheduleRuleText,
} from '@common/retention';

describe('addPeriod', () => {
  it.each([
    ['2024-03-01', 6, 'years', '2030-03-01'],
    ['2024-02-29', 1, 'years', '2025-02-28'],
    ['2024-02-29', 4, 'years', '2028-02-29'],
    ['2024-01-31', 1, 'months', '2024-02-29'],
    ['2023-01-31', 1, 'months', '2023-02-28'],
    ['2024-11-30', 3, 'months', '2025-02-28'],
    ['2024-12-15', 12, 'months', '2025-12-15'],
    ['2024-12-31', 1, 'days', '2025-01-01'],
    ['2024-02-28', 2, 'days', '2024-03-01'],
    ['2024-06-01', 0, 'days', '2024-06-01'],
  ] as [string, number, RetentionPeriodUnit, string][])(
    '%s + %d %s = %s',
    (day, count, unit, expected) => {
      expect(addPeriod(day, count, unit)).toBe(expected);
    },
  );

  it('refuses a text that is not a calendar day', () => {
    expect(() => addPeriod('2024-02-30', 1, 'days')).toThrow(RangeError);
    expect(() => addPeriod('yesterday', 1, 'days')).toThrow(RangeError);
  });
});

describe('periodAtLeast (a locked schedule only lengthens)', () => {
  it.each([
    [{ count: 7, unit: 'years' }, { count: 6, unit: 'years' }, true],
    [{ count: 6, unit: 'years' }, { count: 6, unit: 'years' }, true],
    [{ count: 5, unit: 'years' }, { count: 6, unit: 'years' }, false],
    [{ count: 72, unit: 'months' }, { count: 6, unit: 'years' }, true],
    [{ count: 71, unit: 'months' }, { count: 6, unit: 'years' }, false],
    [{ count: 1, unit: 'years' }, { count: 12, unit: 'months' }, true],
    [{ count: 31, unit: 'days' }, { count: 30, unit: 'days' }, true],
    [{ count: 29, unit: 'days' }, { count: 30, unit: 'days' }, false],
    // Across units only when the new period is longer whatever day it starts on.
    [{ count: 366, unit: 'days' }, { count: 1, unit: 'years' }, true],
    [{ count: 365, unit: 'days' }, { count: 1, unit: 'years' }, false],
    [{ count: 31, unit: 'days' }, { count: 1, unit: 'months' }, true],
    [{ count: 30, unit: 'days' }, { count: 1, unit: 'months' }, false],
    [{ count: 1, unit: 'months' }, { count: 28, unit: 'days' }, true],
    [{ count: 1, unit: 'months' }, { count: 29, unit: 'days' }, false],
    [{ count: 1, unit: 'years' }, { count: 365, unit: 'days' }, true],
    [{ count: 1, unit: 'years' }, { count: 366, unit: 'days' }, false],
  ] as [RetentionPeriod, RetentionPeriod, boolean][])(
    '%j at least %j: %s',
    (next, prev, expected) => {
      expect(periodAtLeast(next, prev)).toBe(expected);
    },
  );
});

describe('days and words', () => {
  it('tells calendar days', () => {
    expect(isDay('2024-02-29')).toBe(true);
    expect(isDay('2023-02-29')).toBe(false);
    expect(isDay('2024-13-01')).toBe(false);
    expect(isDay('2024-1-01')).toBe(false);
  });

  it('takes the UTC day of a moment', () => {
    expect(dayOf('2024-06-30T23:59:59.999Z')).toBe('2024-06-30');
    expect(dayOf(Date.UTC(2031, 2, 1))).toBe('2031-03-01');
  });

  it('formats a day without a time zone', () => {
    expect(formatDay('2031-03-01')).toBe('Mar 1, 2031');
    expect(formatDay('2031-12-31')).toBe('Dec 31, 2031');
    expect(formatDay('not a day')).toBe('');
    expect(formatDay(null)).toBe('');
  });

  it('says periods, bases and rules', () => {
    expect(periodText(1, 'years')).toBe('1 year');
    expect(periodText(6, 'years')).toBe('6 years');
    expect(periodText(1, 'months')).toBe('1 month');
    expect(periodText(30, 'days')).toBe('30 days');
    expect(basisText('created')).toBe('from creation');
    expect(basisText('last_version')).toBe('from the last version');
    expect(basisText('index_date', 'Account closed')).toBe('from “Account closed”');
    expect(basisText('index_date')).toBe('from a date index field');
    expect(
      scheduleRuleText({
        period_count: 5,
        period_unit: 'years',
        basis: 'index_date',
        basis_field_name: 'Account closed',
      }),
    ).toBe('5 years from “Account closed”');
  });

  it('fills its messages', () => {
    expect(
      recordsMessage(RECORDS_MESSAGES.underRetention, {
        name: 'a.pdf',
        schedule: 'SEC',
        date: 'Mar 1, 2031',
      }),
    ).toBe(
      '“a.pdf” is kept by the retention schedule “SEC” until Mar 1, 2031 and cannot be deleted before then.',
    );
    expect(recordsMessage(RECORDS_MESSAGES.unlockRefused)).toBe(RECORDS_MESSAGES.unlockRefused);
  });
});
