/**
 * The password policy (issue 8; docs/architecture.md "Users and lockout"), shared by the server,
 * which enforces it, and the client, which may check before sending. Length is counted in
 * characters (code points), so a password of emoji or accented letters is not penalised.
 */
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants';
import { formatMessage, MESSAGES } from './messages';

/**
 * Why a password breaks the policy, as the message to show, or null when it is acceptable:
 * at least `minLength` characters (PASSWORD_MIN_LENGTH, default 12), at most 1024, not only
 * spaces, and not the username (in any case, spaces around ignored).
 * @param password the new password as typed (not trimmed: spaces count)
 * @param options.username the account's username, when known
 * @param options.minLength the server's PASSWORD_MIN_LENGTH; default {@link PASSWORD_MIN_LENGTH}
 */
export function passwordProblem(
  password: string,
  options: { username?: string; minLength?: number } = {},
): string | null {
  const minLength = options.minLength ?? PASSWORD_MIN_LENGTH;
  const length = [...password].length;
  if (password.trim() === '') return MESSAGES.passwordBlank;
  if (length < minLength) return formatMessage(MESSAGES.passwordTooShort, { n: minLength });
  if (length > PASSWORD_MAX_LENGTH) {
    return formatMessage(MESSAGES.passwordTooLong, { n: PASSWORD_MAX_LENGTH });
  }
  const username = options.username?.trim().toLowerCase();
  if (username && password.trim().toLowerCase() === username) return MESSAGES.passwordIsUsername;
  return null;
}
