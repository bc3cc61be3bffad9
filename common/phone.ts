/**
 * Phone numbers of CRM contacts (SPEC section 3 "Phone number", section 5 "Phone numbers",
 * section 8 error kinds and the 250-character input limit), on libphonenumber-js and its metadata.
 *
 * A stored phone is `{ country_code, number }`: the country calling code (1, 44, 33…) and the
 * national significant number as digits. It is shown in national format when the country code is
 * 1 and in international format otherwise; a stored phone that no longer parses shows as null.
 */
import {
  ParseError,
  parsePhoneNumberFromString,
  parsePhoneNumberWithError,
  validatePhoneNumberLength,
  type CountryCode,
} from 'libphonenumber-js';

/** A stored phone number (SPEC section 3): country calling code and national number digits. */
export interface PhoneDto {
  /** The country calling code, e.g. 1 (North America) or 44 (United Kingdom). */
  country_code: number;
  /** The national significant number, digits only, e.g. "2133734253". */
  number: string;
}

/** Why a phone text was refused (SPEC section 8). */
export type PhoneErrorKind = 'NOT_A_NUMBER' | 'TOO_SHORT' | 'TOO_LONG' | 'INVALID_COUNTRY';

/** The phone error kinds, in the spec's order. */
export const PHONE_ERROR_KINDS: readonly PhoneErrorKind[] = [
  'NOT_A_NUMBER',
  'TOO_SHORT',
  'TOO_LONG',
  'INVALID_COUNTRY',
];

/** Longest phone input accepted, in characters (SPEC section 8); longer text is TOO_LONG. */
export const PHONE_INPUT_MAX_LENGTH = 250;
/** Fewest digits of a national number (SPEC section 5); fewer is TOO_SHORT. */
export const PHONE_NATIONAL_MIN_DIGITS = 2;
/** Most digits of a national number (SPEC section 5); more is TOO_LONG. */
export const PHONE_NATIONAL_MAX_DIGITS = 17;

/** User-facing text of each phone error kind. */
export const PHONE_ERROR_MESSAGES: Record<PhoneErrorKind, string> = {
  NOT_A_NUMBER: 'This is not a phone number.',
  TOO_SHORT: 'The phone number is too short.',
  TOO_LONG: 'The phone number is too long.',
  INVALID_COUNTRY: 'The phone number has no valid country code (start it with + and the code).',
};

/** Outcome of {@link parsePhone}: the stored shape, or the reason it was refused. */
export type PhoneParseResult = { ok: true; phone: PhoneDto } | { ok: false; error: PhoneErrorKind };

function isKind(text: string): text is PhoneErrorKind {
  return (PHONE_ERROR_KINDS as readonly string[]).includes(text);
}

/**
 * Parses phone text as typed or imported (SPEC section 5). Text over 250 characters is TOO_LONG;
 * text without digits NOT_A_NUMBER; a national number under 2 digits TOO_SHORT and over 17
 * TOO_LONG; text without "+" and country code (and no default country), or with an unknown code,
 * INVALID_COUNTRY. The number is then checked against its country's possible lengths in
 * libphonenumber-js's metadata: too few digits is TOO_SHORT, too many TOO_LONG, and a length in
 * between that the country does not use TOO_SHORT (it lacks digits to reach the next length).
 *
 * @param text the phone as typed, e.g. "+1 (213) 373-4253" or "+44 20 7946 0958"
 * @param defaultCountry the country assumed when the text has no "+" prefix (ISO 3166 alpha-2)
 * @returns `{ok: true, phone}` or `{ok: false, error}`; never throws
 */
export function parsePhone(text: string, defaultCountry?: CountryCode): PhoneParseResult {
  if (text.length > PHONE_INPUT_MAX_LENGTH) return { ok: false, error: 'TOO_LONG' };
  try {
    const parsed = parsePhoneNumberWithError(text, defaultCountry);
    const length = validatePhoneNumberLength(text, defaultCountry);
    if (length === 'TOO_LONG') return { ok: false, error: 'TOO_LONG' };
    if (length === 'TOO_SHORT' || length === 'INVALID_LENGTH')
      return { ok: false, error: 'TOO_SHORT' };
    if (length !== undefined) return { ok: false, error: length };
    return {
      ok: true,
      phone: { country_code: Number(parsed.countryCallingCode), number: parsed.nationalNumber },
    };
  } catch (error) {
    if (error instanceof ParseError && isKind(error.message))
      return { ok: false, error: error.message };
    return { ok: false, error: 'NOT_A_NUMBER' };
  }
}

/**
 * Formats a stored phone for display (SPEC section 3): national format when the country code is 1
 * ("(213) 373-4253"), international otherwise ("+44 20 7946 0958").
 *
 * @param phone the stored phone
 * @returns the display text, or null when the phone does not parse
 */
export function formatPhone(phone: PhoneDto): string | null {
  if (!Number.isInteger(phone.country_code) || phone.country_code <= 0) return null;
  if (!/^\d+$/.test(phone.number)) return null;
  const text = `+${phone.country_code}${phone.number}`;
  if (text.length > PHONE_INPUT_MAX_LENGTH) return null;
  const parsed = parsePhoneNumberFromString(text);
  if (!parsed) return null;
  return phone.country_code === 1 ? parsed.formatNational() : parsed.formatInternational();
}

/**
 * Checks that a value read from storage or a request is a {@link PhoneDto} whose number parses.
 *
 * @param value any JSON value
 * @returns the normalised phone (national number digits as libphonenumber-js reads them), or the
 *   error kind when it does not parse; NOT_A_NUMBER when the value is not of the stored shape
 */
export function normalisePhone(value: unknown): PhoneParseResult {
  if (typeof value === 'string') return parsePhone(value);
  if (typeof value !== 'object' || value === null) return { ok: false, error: 'NOT_A_NUMBER' };
  const { country_code: code, number } = value as Record<string, unknown>;
  if (typeof code !== 'number' || !Number.isInteger(code) || code <= 0)
    return { ok: false, error: 'INVALID_COUNTRY' };
  if (typeof number !== 'string') return { ok: false, error: 'NOT_A_NUMBER' };
  if (number.length > PHONE_INPUT_MAX_LENGTH) return { ok: false, error: 'TOO_LONG' };
  return parsePhone(`+${code} ${number}`);
}

/**
 * A stored phone as text to edit: the international format ("+1 213 373 4253"), which parses back
 * to the same phone without a default country (the national display of code 1 would not).
 *
 * @param phone the stored phone
 * @returns the editable text; "+{code}{number}" when the phone does not parse
 */
export function phoneInputText(phone: PhoneDto): string {
  const parsed = parsePhoneNumberFromString(`+${phone.country_code}${phone.number}`);
  return parsed ? parsed.formatInternational() : `+${phone.country_code}${phone.number}`;
}
