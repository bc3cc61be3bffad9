/**
 * The password policy (docs/architecture.md "Users and lockout"), shared by the server, which
 * enforces it on every password it sets, and the client, which checks before sending. Length is
 * counted in characters (code points), so a password of emoji or accented letters is not
 * penalised. Strength is estimated with zxcvbn-ts (common passwords, English words and names,
 * keyboard patterns, repeats, sequences, dates, and the account's own details as a user
 * dictionary); a password must reach {@link PASSWORD_MIN_SCORE}.
 *
 * The dictionaries are large (about 1 MB), so they are loaded on first use with dynamic
 * `import()`: the client's bundler puts them in a chunk of their own, outside the initial bundle.
 */
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants';
import { formatMessage, MESSAGES } from './messages';

/** Lowest zxcvbn score (0–4) accepted: 3 is "safely unguessable" (about 10^8 guesses or more). */
const PASSWORD_MIN_SCORE = 3;

/** The account details a password must not be built from (the zxcvbn user dictionary). */
export interface PasswordUserInputs {
  /** The account's username, when known. */
  username?: string;
  /** Other details: display name, first and last name, e-mail address, firm name. */
  userInputs?: readonly (string | null | undefined)[];
  /** The server's PASSWORD_MIN_LENGTH; default {@link PASSWORD_MIN_LENGTH}. */
  minLength?: number;
}

let checker: Promise<ZxcvbnFactory> | null = null;

/**
 * Loads the strength checker and its dictionaries once (dynamic imports); later calls return the
 * same promise. The client may call it early (e.g. when a password field opens) to hide the
 * download; {@link passwordProblem} calls it anyway.
 */
export function loadPasswordChecker(): Promise<ZxcvbnFactory> {
  checker ??= Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ])
    .then(
      ([core, common, en]) =>
        new core.ZxcvbnFactory({
          translations: en.translations,
          graphs: common.adjacencyGraphs,
          dictionary: { ...common.dictionary, ...en.dictionary },
        }),
    )
    .catch((error: unknown) => {
      checker = null; // A failed download (client) may be retried by the next check.
      throw error;
    });
  return checker;
}

/**
 * The account details, lowercased, as the strength checker's user dictionary: each detail, each
 * joined without separators, their parts (e-mail local part, words of a name), and each two
 * details joined (first and last name: `gracehopper`).
 */
function dictionaryOf(options: PasswordUserInputs): string[] {
  const words = new Set<string>();
  const details: string[] = [];
  for (const value of [options.username, ...(options.userInputs ?? [])]) {
    const text = (value ?? '').trim().toLowerCase();
    if (text === '') continue;
    const joined = text.replace(/[\s@.,_+-]+/g, '');
    details.push(joined);
    words.add(text);
    words.add(joined);
    const local = text.includes('@') ? text.slice(0, text.lastIndexOf('@')) : '';
    if (local !== '') {
      words.add(local);
      words.add(local.replace(/[\s.,_+-]+/g, ''));
    }
    for (const part of text.split(/[\s@.,_+-]+/)) if (part.length >= 3) words.add(part);
  }
  for (const a of details) for (const b of details) if (a !== b) words.add(a + b);
  return [...words];
}

/**
 * Why a password breaks the policy, as the message to show, or null when it is acceptable: at
 * least `minLength` characters (PASSWORD_MIN_LENGTH, default 12), at most 1024, not only spaces,
 * not the username (in any case, spaces around ignored), and a zxcvbn score of at least
 * {@link PASSWORD_MIN_SCORE} with the account's details as user dictionary (so `password1234`,
 * `aaaaaaaaaaaa` and `<username>2024` are refused with MESSAGES.passwordTooWeak).
 * @param password the new password as typed (not trimmed: spaces count)
 * @param options the account's details and the minimum length
 * @returns the message, or null; rejects only when the dictionaries cannot be loaded
 */
export async function passwordProblem(
  password: string,
  options: PasswordUserInputs = {},
): Promise<string | null> {
  const minLength = options.minLength ?? PASSWORD_MIN_LENGTH;
  const length = [...password].length;
  if (password.trim() === '') return MESSAGES.passwordBlank;
  if (length < minLength) return formatMessage(MESSAGES.passwordTooShort, { n: minLength });
  if (length > PASSWORD_MAX_LENGTH) {
    return formatMessage(MESSAGES.passwordTooLong, { n: PASSWORD_MAX_LENGTH });
  }
  const username = options.username?.trim().toLowerCase();
  if (username && password.trim().toLowerCase() === username) return MESSAGES.passwordIsUsername;
  const zxcvbn = await loadPasswordChecker();
  const result = zxcvbn.check(password, dictionaryOf(options));
  if (result.score >= PASSWORD_MIN_SCORE) return null;
  const hint = result.feedback.warning || MESSAGES.passwordTooWeakHint;
  return formatMessage(MESSAGES.passwordTooWeak, { hint: /[.!?]$/.test(hint) ? hint : `${hint}.` });
}
