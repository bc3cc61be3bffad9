import { describe, expect, it } from '@jest/globals';
import {
  INDEX_FIELD_UNDO_MS,
  INDEX_MESSAGES,
  INDEX_VALUE_MAX_LENGTH,
  clearIndexForm,
  indexFieldNameKey,
  indexFormToRequest,
  indexMessage,
  removeIndexFormKey,
  updateIndexFormValue,
  validateIndexForm,
  validateIndexValue,
} from '@common/indexFields';

describe('validateIndexValue', () => {
  it('trims text and refuses blank, too long and control characters', () => {
    expect(validateIndexValue('text_field', '  ACME 42 ')).toEqual({ ok: true, value: 'ACME 42' });
    expect(validateIndexValue('text_field', '   ')).toEqual({
      ok: false,
      message: INDEX_MESSAGES.valueRequired,
    });
    expect(validateIndexValue('text_field', undefined)).toEqual({
      ok: false,
      message: INDEX_MESSAGES.valueRequired,
    });
    expect(validateIndexValue('text_field', 'x'.repeat(INDEX_VALUE_MAX_LENGTH)).ok).toBe(true);
    expect(validateIndexValue('text_field', 'x'.repeat(INDEX_VALUE_MAX_LENGTH + 1))).toEqual({
      ok: false,
      message: INDEX_MESSAGES.valueTooLong,
    });
    expect(validateIndexValue('text_field', 'a\u0000b')).toEqual({
      ok: false,
      message: INDEX_MESSAGES.valueInvalidCharacters,
    });
  });

  it('accepts real calendar dates as YYYY-MM-DD only', () => {
    expect(validateIndexValue('date', '2024-02-29')).toEqual({ ok: true, value: '2024-02-29' });
    for (const bad of [
      '2023-02-29',
      '2024-13-01',
      '2024-00-10',
      '2024-1-5',
      '05/01/2024',
      'soon',
    ]) {
      expect(validateIndexValue('date', bad)).toEqual({
        ok: false,
        message: INDEX_MESSAGES.invalidDate,
      });
    }
  });

  it('answers numbers as canonical decimal text', () => {
    expect(validateIndexValue('number', '2024')).toEqual({ ok: true, value: '2024' });
    expect(validateIndexValue('number', 2024)).toEqual({ ok: true, value: '2024' });
    expect(validateIndexValue('number', '+007.50')).toEqual({ ok: true, value: '7.5' });
    expect(validateIndexValue('number', '-0.0')).toEqual({ ok: true, value: '0' });
    expect(validateIndexValue('number', '-12.25')).toEqual({ ok: true, value: '-12.25' });
    expect(validateIndexValue('number', '.5')).toEqual({ ok: true, value: '0.5' });
    expect(validateIndexValue('number', '12345678901234567890')).toEqual({
      ok: true,
      value: '12345678901234567890',
    });
    for (const bad of ['12a', '1e5', '1,000', '.', '-', '1.2.3']) {
      expect(validateIndexValue('number', bad)).toEqual({
        ok: false,
        message: INDEX_MESSAGES.invalidNumber,
      });
    }
  });

  it('accepts only a value of the list, in its own spelling', () => {
    const values = [{ value: 'Invoice' }, { value: 'Statement' }];
    expect(validateIndexValue('list', 'invoice', values)).toEqual({ ok: true, value: 'Invoice' });
    expect(validateIndexValue('list', 'Statement', ['Invoice', 'Statement'])).toEqual({
      ok: true,
      value: 'Statement',
    });
    expect(validateIndexValue('list', 'Receipt', values)).toEqual({
      ok: false,
      message: INDEX_MESSAGES.notInList,
    });
  });
});

describe('names and messages', () => {
  it('compares names trimmed and case-insensitively', () => {
    expect(indexFieldNameKey('  Tax Year ')).toBe('tax year');
  });
  it('fills placeholders', () => {
    expect(indexMessage(INDEX_MESSAGES.nameTaken, { name: 'Tax year' })).toBe(
      'An index field named "Tax year" already exists.',
    );
  });
  it('keeps a deleted field undoable for 30 days', () => {
    expect(INDEX_FIELD_UNDO_MS).toBe(30 * 86_400_000);
  });
});

describe('the apply-index form', () => {
  const fields = [
    { id: 'year', name: 'Tax year', type: 'number' as const, values: [], archived_at: null },
    {
      id: 'kind',
      name: 'Document type',
      type: 'list' as const,
      values: [{ id: 'v1', value: 'Invoice', position: 0 }],
      archived_at: null,
    },
    { id: 'old', name: 'Old', type: 'text_field' as const, values: [], archived_at: '2024-01-01' },
  ];

  it('updates a value, removes a key and clears all without mutating', () => {
    const empty = clearIndexForm();
    const one = updateIndexFormValue(empty, 'year', '2024');
    const two = updateIndexFormValue(one, 'kind', 'Invoice');
    expect(empty).toEqual({});
    expect(one).toEqual({ year: '2024' });
    expect(two).toEqual({ year: '2024', kind: 'Invoice' });
    expect(updateIndexFormValue(two, 'year', '2025')).toEqual({ year: '2025', kind: 'Invoice' });
    const removed = removeIndexFormKey(two, 'year');
    expect(removed).toEqual({ kind: 'Invoice' });
    expect(two).toEqual({ year: '2024', kind: 'Invoice' });
    expect(removeIndexFormKey(removed, 'nothing')).toBe(removed);
    expect(clearIndexForm()).toEqual({});
  });

  it('turns the form into the request in field order, skipping blanks', () => {
    const state = { kind: ' Invoice ', blank: '  ', year: '2024' };
    expect(indexFormToRequest(state, fields)).toEqual([
      { indexFieldId: 'year', value: '2024' },
      { indexFieldId: 'kind', value: 'Invoice' },
    ]);
  });

  it('checks each value by its field, and refuses archived or unknown fields', () => {
    expect(validateIndexForm({ year: '2024', kind: 'invoice', blank: '' }, fields)).toEqual({});
    expect(
      validateIndexForm({ year: 'last year', kind: 'Receipt', old: 'x', gone: 'y' }, fields),
    ).toEqual({
      year: INDEX_MESSAGES.invalidNumber,
      kind: INDEX_MESSAGES.notInList,
      old: 'The index field "Old" is archived and cannot be applied.',
      gone: INDEX_MESSAGES.noIndexes,
    });
  });
});
