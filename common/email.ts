/**
 * E-mail address format check (SPEC.md section 5: "local part, @, then a domain with a 2-6 letter
 * top-level part or an IPv4 address").
 */

/** One IPv4 octet, 0-255. */
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
/** A dotted IPv4 address. */
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;

/**
 * The classic e-mail pattern: a local part of dot-separated atoms (no spaces, brackets, commas,
 * quotes or '@') or a quoted string; '@'; then an IPv4 address, bare or in brackets, or one or more
 * dot-terminated labels of letters, digits and '-' followed by a 2-6 letter top-level part.
 */
const EMAIL_PATTERN = new RegExp(
  '^(?:[^<>()[\\]\\\\.,;:\\s@"]+(?:\\.[^<>()[\\]\\\\.,;:\\s@"]+)*|"[^"\\r\\n]+")' +
    `@(?:\\[${IPV4}\\]|${IPV4}|(?:[a-zA-Z0-9-]+\\.)+[a-zA-Z]{2,6})$`,
);

/** Longest accepted address, in characters (RFC 5321 path limit). */
const MAX_EMAIL_LENGTH = 254;

/**
 * Checks the format of an e-mail address (SPEC section 5). Examples: "a@b.co" and "a@b.museum"
 * (6 letters) pass; "a@b.c" and "a@b.abcdefg" fail; "a@[192.168.0.1]" and "a@192.168.0.1" pass.
 * Surrounding spaces are not trimmed and make the address invalid.
 *
 * @param text the address as typed
 * @returns true when the text is a well-formed address of at most 254 characters
 */
export function isValidEmail(text: string): boolean {
  return text.length <= MAX_EMAIL_LENGTH && EMAIL_PATTERN.test(text);
}
