import { describe, expect, it } from '@jest/globals';
import { formatMessage, MESSAGES } from '@common/messages';
import { passwordProblem } from '@common/passwordPolicy';

/** The start of the too-weak message, whatever hint the strength checker adds. */
const TOO_WEAK = MESSAGES.passwordTooWeak.slice(0, MESSAGES.passwordTooWeak.indexOf('{'));

describe('passwordProblem (password policy)', () => {
  it('accepts a strong password of the minimum length and refuses one character less', async () => {
    expect(await passwordProblem('Tk9#vQ2!mZ4p')).toBeNull();
    expect(await passwordProblem('Tk9#vQ2!mZ4')).toBe(
      formatMessage(MESSAGES.passwordTooShort, { n: 12 }),
    );
  });

  it('uses the given minimum length', async () => {
    expect(await passwordProblem('Tk9#vQ2!mZ', { minLength: 8 })).toBeNull();
    expect(await passwordProblem('Tk9#vQ2!mZ', { minLength: 16 })).toBe(
      formatMessage(MESSAGES.passwordTooShort, { n: 16 }),
    );
  });

  it('counts characters, not UTF-16 units', async () => {
    // Six emoji are 12 UTF-16 units but only 6 characters.
    expect(await passwordProblem('😀🎉🦊🌵🚲🎻')).toBe(
      formatMessage(MESSAGES.passwordTooShort, { n: 12 }),
    );
    expect(await passwordProblem('😀🎉🦊🌵🚲🎻🍉🧭🪁🛶🎲🧩')).toBeNull();
  });

  it('refuses blank, overlong and username passwords', async () => {
    expect(await passwordProblem(' '.repeat(30))).toBe(MESSAGES.passwordBlank);
    expect(await passwordProblem('')).toBe(MESSAGES.passwordBlank);
    expect(await passwordProblem('x'.repeat(1025))).toBe(
      formatMessage(MESSAGES.passwordTooLong, { n: 1024 }),
    );
    expect(await passwordProblem('Jane.Doe.Advisor', { username: 'jane.doe.advisor' })).toBe(
      MESSAGES.passwordIsUsername,
    );
  });

  it('refuses guessable passwords of any length with a clear message (zxcvbn score below 3)', async () => {
    for (const weak of ['password1234', 'aaaaaaaaaaaa', 'qwertyuiopasdf', '123456789012']) {
      const problem = await passwordProblem(weak);
      expect(problem).toMatch(new RegExp(`^${TOO_WEAK}`));
      expect(problem).not.toMatch(/[{}]/);
    }
    expect(await passwordProblem('password1234')).toBe(
      formatMessage(MESSAGES.passwordTooWeak, {
        hint: 'This is similar to a commonly used password.',
      }),
    );
  });

  it("refuses a password built from the account's own details (user dictionary)", async () => {
    // Strong on its own, weak once the checker knows the username or the names.
    expect(await passwordProblem('mwhitcombe2024')).toBeNull();
    expect(await passwordProblem('mwhitcombe2024', { username: 'mwhitcombe' })).toMatch(
      new RegExp(`^${TOO_WEAK}`),
    );
    expect(
      await passwordProblem('margueritewhitcombe', {
        username: 'mw',
        userInputs: ['Marguerite', 'Whitcombe', 'mw@example.com'],
      }),
    ).toMatch(new RegExp(`^${TOO_WEAK}`));
    expect(
      await passwordProblem('gracehopper2024', { username: 'gh', userInputs: ['Grace', 'Hopper'] }),
    ).toMatch(new RegExp(`^${TOO_WEAK}`));
    expect(
      await passwordProblem('harbourbridgeadvisory1', { userInputs: ['Harbour Bridge Advisory'] }),
    ).toMatch(new RegExp(`^${TOO_WEAK}`));
  });

  it('accepts passphrases of uncommon words, including the test fixtures', async () => {
    for (const strong of [
      'correct horse battery staple',
      'a guest passphrase 2024',
      'matrix actor password',
      'A long enough passphrase 42!',
      'Another long passphrase 43!',
    ]) {
      expect(await passwordProblem(strong)).toBeNull();
    }
  });
});
