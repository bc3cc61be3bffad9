// sanitizeAdminAction: the passwords of a new member and of a password change, and a new
// integration key, are masked in the developer tools' action log; other actions pass unchanged.
import { describe, expect, it } from '@jest/globals';
import { makeCreatedKey } from '../integrations/integrationsFixtures';
import { sanitizeAdminAction } from '@src/features/admin/sanitizeAdminAction';
import { integrationsActions } from '@src/features/integrations/integrationsSlice';
import { membersActions } from '@src/features/members/membersSlice';

describe('sanitizeAdminAction', () => {
  it('masks passwords and new keys, and leaves other actions alone', () => {
    const create = sanitizeAdminAction(
      membersActions.memberCreateRequested({
        username: 'x',
        firstName: 'X',
        lastName: 'Y',
        password: 'correct horse battery',
      }),
    );
    expect(JSON.stringify(create)).not.toContain('correct horse');
    const password = sanitizeAdminAction(
      membersActions.passwordChangeRequested({ memberId: 'u2', password: 'correct horse battery' }),
    );
    expect(JSON.stringify(password)).not.toContain('correct horse');
    const key = sanitizeAdminAction(integrationsActions.keyIssued(makeCreatedKey()));
    expect(JSON.stringify(key)).not.toContain('secret');
    const other = membersActions.membersRequested();
    expect(sanitizeAdminAction(other)).toBe(other);
  });
});
