/** Passwords of share links and guest sign-ups never reach the developer tools' action log. */
import { describe, expect, it } from '@jest/globals';
import { sanitizeSharingAction } from '@src/features/sharing/sharingSagas';
import { sharingActions } from '@src/features/sharing/sharingSlice';

describe('sanitizeSharingAction', () => {
  it('hides the link password of a new share, and leaves a share without one as it is', () => {
    const withPassword = sharingActions.createRequested({
      entity_type: 'file',
      entity_id: 'f1',
      emails: ['a@b.co'],
      password: 'secret link pass',
    });
    const hidden = sanitizeSharingAction(withPassword);
    expect(hidden.payload).toMatchObject({ password: '••••••', entity_id: 'f1' });
    const without = sharingActions.createRequested({
      entity_type: 'file',
      entity_id: 'f1',
      emails: [],
    });
    expect(sanitizeSharingAction(without)).toBe(without);
  });

  it('hides the account and link passwords of a guest sign-up and sign-in', () => {
    const signUp = sanitizeSharingAction(
      sharingActions.guestSignUpRequested({
        first_name: 'Gina',
        last_name: 'Guest',
        email: 'g@b.co',
        password: 'a guest passphrase',
        shareId: 'token',
        link_password: 'link pass',
      }),
    );
    expect(signUp.payload).toMatchObject({
      email: 'g@b.co',
      password: '••••••',
      link_password: '••••••',
    });
    const signIn = sanitizeSharingAction(
      sharingActions.guestSignInRequested({
        email: 'g@b.co',
        password: 'a guest passphrase',
        inviteId: 'token',
      }),
    );
    expect(signIn.payload).toEqual({ email: 'g@b.co', password: '••••••', inviteId: 'token' });
  });

  it('returns other actions unchanged', () => {
    const other = { type: 'sharing/somethingElse', payload: { password: 'x' } };
    expect(sanitizeSharingAction(other)).toBe(other);
  });

  it('hides the token and link password of an Accept', () => {
    const hidden = sanitizeSharingAction(
      sharingActions.acceptRequested({ linkId: 'l1', token: 'secret token', password: 'pw' }),
    );
    expect(hidden.payload).toEqual({ linkId: 'l1', token: '••••••', password: '••••••' });
    const noPassword = sanitizeSharingAction(
      sharingActions.acceptRequested({ linkId: 'l1', token: 'secret token' }),
    );
    expect(noPassword.payload).toEqual({ linkId: 'l1', token: '••••••' });
  });
});
