import { describe, expect, it } from '@jest/globals';
import { capitalize, plural, splitCamelCase } from '@common/text';

describe('capitalize', () => {
  it('uppercases the first letter and lowercases the rest', () => {
    expect(capitalize('hELLO wORLD')).toBe('Hello world');
    expect(capitalize('ADMIN')).toBe('Admin');
    expect(capitalize('a')).toBe('A');
    expect(capitalize('')).toBe('');
  });
});

describe('splitCamelCase', () => {
  it('splits camel-case names into words', () => {
    expect(splitCamelCase('firstName')).toBe('first Name');
    expect(splitCamelCase('createdByName')).toBe('created By Name');
    expect(splitCamelCase('HTMLParser')).toBe('HTML Parser');
    expect(splitCamelCase('file2Name')).toBe('file2 Name');
    expect(splitCamelCase('name')).toBe('name');
  });

  it('makes a label together with capitalize', () => {
    expect(capitalize(splitCamelCase('lastName'))).toBe('Last name');
  });
});

describe('plural', () => {
  it("adds 's' unless the count is 1", () => {
    expect(plural(1, 'file')).toBe('file');
    expect(plural(0, 'file')).toBe('files');
    expect(plural(2, 'file')).toBe('files');
    expect(plural(-1, 'file')).toBe('files');
    expect(plural(1.5, 'file')).toBe('files');
  });
});
