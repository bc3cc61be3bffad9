import { describe, expect, it } from '@jest/globals';
import { isValidEmail } from '@common/email';

describe('isValidEmail (SPEC section 5)', () => {
  it.each([
    'a@b.co',
    'a@b.museum',
    'ada.lovelace@example.com',
    'first.last+tag@mail.example.co.uk',
    'a@[192.168.0.1]',
    'a@192.168.0.1',
    '"quoted name"@example.com',
    "o'brien@example.ie",
  ])('accepts %j', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  it.each([
    '',
    'plain',
    '@example.com',
    'a@',
    'a@b',
    'a@b.c',
    'a@b.abcdefg',
    'a@b.c0m',
    'a b@example.com',
    'a@@example.com',
    'a..b@example.com',
    '.a@example.com',
    'a.@example.com',
    ' a@b.co',
    'a@b.co ',
    'a@[192.168.0.1',
    'a@192.168.0.256',
    'a@192.168.0',
    'a,b@example.com',
    'a@exa mple.com',
  ])('refuses %j', (email) => {
    expect(isValidEmail(email)).toBe(false);
  });

  it('refuses addresses longer than 254 characters', () => {
    const local = 'a'.repeat(64);
    const domain = `${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.com`;
    expect(isValidEmail(`${local}@${domain}`)).toBe(true);
    expect(isValidEmail(`${local}@x${domain}${'e'.repeat(10)}.com`)).toBe(false);
  });
});
