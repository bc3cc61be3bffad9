// Phone numbers (SPEC sections 3, 5 and 8): parsing, each error kind and the
// display format, checked against libphonenumber-js's own answers and metadata rather than only
// against hard-coded strings.
import { describe, expect, it } from '@jest/globals';
import {
  getCountries,
  getCountryCallingCode,
  getExampleNumber,
  ParseError,
  parsePhoneNumberWithError,
  validatePhoneNumberLength,
  type CountryCode,
} from 'libphonenumber-js';
import examples from 'libphonenumber-js/examples.mobile.json';
import {
  formatPhone,
  phoneInputText,
  normalisePhone,
  parsePhone,
  PHONE_ERROR_KINDS,
  PHONE_INPUT_MAX_LENGTH,
  PHONE_NATIONAL_MAX_DIGITS,
  PHONE_NATIONAL_MIN_DIGITS,
  type PhoneErrorKind,
} from '@common/phone';

/** What libphonenumber-js itself says of a text: its parse error, its length verdict, or ok. */
function libraryVerdict(text: string, country?: CountryCode): string {
  try {
    parsePhoneNumberWithError(text, country);
  } catch (error) {
    if (error instanceof ParseError) return error.message;
    throw error;
  }
  return validatePhoneNumberLength(text, country) ?? 'ok';
}

/** Our verdict on a text: 'ok' or the error kind. */
function ourVerdict(text: string, country?: CountryCode): string {
  const result = parsePhone(text, country);
  return result.ok ? 'ok' : result.error;
}

describe('parsePhone', () => {
  it("parses every country's example number as libphonenumber-js does, and displays it by the spec", () => {
    const countries = getCountries();
    expect(countries.length).toBeGreaterThan(200);
    let checked = 0;
    for (const country of countries) {
      const example = getExampleNumber(country, examples);
      if (!example) continue;
      const international = example.formatInternational();
      const result = parsePhone(international);
      expect({ country, result }).toEqual({
        country,
        result: {
          ok: true,
          phone: {
            country_code: Number(getCountryCallingCode(country)),
            number: example.nationalNumber,
          },
        },
      });
      if (!result.ok) continue;
      // National format for country code 1 (US, Canada, Caribbean), international otherwise.
      const expected =
        result.phone.country_code === 1 ? example.formatNational() : example.formatInternational();
      expect({ country, shown: formatPhone(result.phone) }).toEqual({ country, shown: expected });
      // The national number also parses with the country as default.
      expect(ourVerdict(example.formatNational(), country)).toBe('ok');
      checked += 1;
    }
    expect(checked).toBeGreaterThan(200);
  });

  it('formats a North American number nationally and others internationally', () => {
    expect(formatPhone({ country_code: 1, number: '2133734253' })).toBe('(213) 373-4253');
    expect(formatPhone({ country_code: 44, number: '2079460958' })).toBe('+44 20 7946 0958');
  });

  it('answers null for a stored phone that does not parse', () => {
    expect(formatPhone({ country_code: 999, number: '12345' })).toBeNull();
    expect(formatPhone({ country_code: 1, number: 'abc' })).toBeNull();
    expect(formatPhone({ country_code: 1, number: '' })).toBeNull();
    expect(formatPhone({ country_code: 1, number: '1' })).toBeNull();
    expect(formatPhone({ country_code: 0, number: '2133734253' })).toBeNull();
    expect(formatPhone({ country_code: 1.5, number: '2133734253' })).toBeNull();
    expect(formatPhone({ country_code: 1, number: '9'.repeat(300) })).toBeNull();
  });

  const cases: [PhoneErrorKind, string, CountryCode | undefined][] = [
    ['NOT_A_NUMBER', 'call me maybe', undefined],
    ['NOT_A_NUMBER', '', undefined],
    ['NOT_A_NUMBER', 'abc', 'US'],
    ['TOO_SHORT', '+1', undefined],
    ['TOO_SHORT', '+44 1', undefined],
    ['TOO_SHORT', '+49 11', undefined],
    ['TOO_LONG', '+1 2133734253999999999', undefined],
    ['TOO_LONG', '+1 213 373 42531', undefined],
    ['TOO_LONG', '+49 1111111111111111', undefined],
    ['INVALID_COUNTRY', '2133734253', undefined],
    ['INVALID_COUNTRY', '+999 12345', undefined],
  ];
  it.each(cases)('answers %s for %j (as libphonenumber-js does)', (kind, text, country) => {
    expect(PHONE_ERROR_KINDS).toContain(kind);
    expect(libraryVerdict(text, country)).toBe(kind);
    expect(ourVerdict(text, country)).toBe(kind);
  });

  it('agrees with libphonenumber-js on every national number length, and rejects under 2 and over 17 digits', () => {
    for (const callingCode of ['1', '44', '49', '33', '61', '81', '55']) {
      for (let digits = 1; digits <= 22; digits += 1) {
        const text = `+${callingCode}${'2'.repeat(digits)}`;
        const ours = ourVerdict(text);
        const theirs = libraryVerdict(text);
        // libphonenumber-js's INVALID_LENGTH (a length between the country's shortest and
        // longest that it does not use) is our TOO_SHORT.
        expect({ text, ours }).toEqual({
          text,
          ours: theirs === 'INVALID_LENGTH' ? 'TOO_SHORT' : theirs,
        });
        if (digits < PHONE_NATIONAL_MIN_DIGITS) expect(ours).toBe('TOO_SHORT');
        if (digits > PHONE_NATIONAL_MAX_DIGITS) expect(ours).toBe('TOO_LONG');
      }
    }
  });

  it('limits the input to 250 characters', () => {
    const padded = '+1 213 373 4253'.padEnd(PHONE_INPUT_MAX_LENGTH, ' ');
    expect(padded).toHaveLength(250);
    expect(parsePhone(padded)).toEqual({
      ok: true,
      phone: { country_code: 1, number: '2133734253' },
    });
    const over = `${padded} `;
    expect(libraryVerdict(over)).toBe('TOO_LONG');
    expect(ourVerdict(over)).toBe('TOO_LONG');
    expect(ourVerdict('x'.repeat(10_000))).toBe('TOO_LONG');
  });

  it('reads punctuation, a default country and the stored shape', () => {
    expect(parsePhone('+1 (213) 373-4253')).toEqual(parsePhone('+12133734253'));
    expect(parsePhone('020 7946 0958', 'GB')).toEqual({
      ok: true,
      phone: { country_code: 44, number: '2079460958' },
    });
    expect(normalisePhone({ country_code: 44, number: '2079460958' })).toEqual({
      ok: true,
      phone: { country_code: 44, number: '2079460958' },
    });
    expect(normalisePhone({ country_code: 44, number: '1' })).toEqual({
      ok: false,
      error: 'TOO_SHORT',
    });
    expect(normalisePhone({ country_code: 'x', number: '1' })).toEqual({
      ok: false,
      error: 'INVALID_COUNTRY',
    });
    expect(normalisePhone(42)).toEqual({ ok: false, error: 'NOT_A_NUMBER' });
    expect(normalisePhone('+44 20 7946 0958')).toEqual({
      ok: true,
      phone: { country_code: 44, number: '2079460958' },
    });
  });
});

describe('phoneInputText', () => {
  it('gives a stored phone as international text that parses back to the same phone', () => {
    for (const phone of [
      { country_code: 1, number: '2133734253' },
      { country_code: 44, number: '2079460958' },
      { country_code: 33, number: '123456789' },
    ]) {
      const text = phoneInputText(phone);
      expect(text.startsWith(`+${phone.country_code} `)).toBe(true);
      expect(parsePhone(text)).toEqual({ ok: true, phone });
    }
    expect(phoneInputText({ country_code: 1, number: '2133734253' })).toBe('+1 213 373 4253');
  });
});
