import { integrationsActions } from '@src/features/integrations/integrationsSlice';
import { membersActions } from '@src/features/members/membersSlice';

/**
 * Keeps secrets out of the developer tools' action log: the password of a new member or a
 * password change, and a new integration key. Other actions are returned unchanged.
 */
export function sanitizeAdminAction<A extends { type: string }>(action: A): A {
  const hidden = '••••••';
  if (
    membersActions.memberCreateRequested.match(action) ||
    membersActions.passwordChangeRequested.match(action)
  ) {
    return { ...action, payload: { ...action.payload, password: hidden } };
  }
  if (integrationsActions.keyIssued.match(action)) {
    return { ...action, payload: { ...action.payload, key: hidden } };
  }
  return action;
}
