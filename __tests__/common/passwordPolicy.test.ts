import { describe, expect, it } from '@jest/globals';
import { formatMessage, MESSAGES } from '../../common/messages';
import { passwordProblem } from '../../common/passwordPolicy';

describe('passwordProblem (issue 8 password policy)', () => {
  it('accepts a password of the minimum length and refuses one character less', () => {
    expect(passwordProblem('a'.repeat(12))).toBeNull();
    expect(passwordProblem('a'.repeat(11))).toBe(
      formatMessage(MESSAGES.passwordTooShort, { n: 12 }),
    );
  });

  it('uses the given minimum length', () => {
    expect(passwordProblem('abcdefgh', { minLength: 8 })).toBeNull();
    expect(passwordProblem('abcdefgh', { minLength: 16 })).toBe(
      formatMessage(MESSAGES.passwordTooShort, { n: 16 }),
    );
  });

  it('counts characters, not UTF-16 units', () => {
    // Six emoji are 12 UTF-16 units but only 6 characters.
    expect(passwordProblem('😀'.repeat(6))).toBe(
      formatMessage(MESSAGES.passwordTooShort, { n: 12 }),
    );
    expect(passwordProblem('😀'.repeat(12))).toBeNull();
  });

  it('refuses blank, overlong and username passwords', () => {
    expect(passwordProblem(' '.repeat(30))).toBe(MESSAGES.passwordBlank);
    expect(passwordProblem('')).toBe(MESSAGES.passwordBlank);
    expect(passwordProblem('x'.repeat(1025))).toBe(
      formatMessage(MESSAGES.passwordTooLong, { n: 1024 }),
    );
    expect(passwordProblem('Jane.Doe.Advisor', { username: 'jane.doe.advisor' })).toBe(
      MESSAGES.passwordIsUsername,
    );
    expect(passwordProblem('jane.doe.advisor!', { username: 'jane.doe.advisor' })).toBeNull();
  });
});
