/**
 * Sagas of the operator's Firms section (firm provisioning). Every worker is wrapped with
 * `safely`; failures end in the slice's `…Failed` events with the server's message, and a change
 * that worked shows a success message.
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import { all, call, put, takeLatest, takeLeading } from 'typed-redux-saga';
import type { FirmDto, FirmRole } from '@common/firms';
import { errorMessage } from '@src/api/client';
import { safely } from '@src/sagas/safely';
import { notifySuccess } from '@src/features/notifications/notifySuccess';
import * as firmsApi from './firmsApi';
import { firmsActions, type FirmDialogKind } from './firmsSlice';
import type { Saga } from '@src/sagas/saga';

/** Text of the list's failure. */
export const FIRMS_LIST_FAILED = 'Could not get firms.';

/** Reads every firm (GET private/firms). */
export function* loadFirms(): Saga {
  try {
    const items = yield* call(firmsApi.fetchFirms);
    yield* put(firmsActions.listLoaded(items));
  } catch (error) {
    yield* put(firmsActions.listFailed(`${FIRMS_LIST_FAILED} ${errorMessage(error)}`.trim()));
  }
}

/** Runs one firm change; its answer replaces the firm in the list and closes the dialog. */
function* changeFirm(work: () => Promise<FirmDto>, done: (firm: FirmDto) => string): Saga {
  try {
    const firm = yield* call(work);
    yield* put(firmsActions.firmSaved(firm));
    yield* call(notifySuccess, done(firm));
  } catch (error) {
    yield* put(firmsActions.firmChangeFailed(errorMessage(error)));
  }
}

/** Creates a firm (POST private/firms). */
export function* createFirm(action: PayloadAction<{ name: string; description: string }>): Saga {
  yield* call(
    changeFirm,
    () => firmsApi.createFirm(action.payload),
    (firm: FirmDto) => `The firm ${firm.name} was created.`,
  );
}

/** Renames a firm (PATCH private/firms/{id}). */
export function* renameFirm(action: PayloadAction<{ firmId: string; name: string }>): Saga {
  const { firmId, name } = action.payload;
  yield* call(
    changeFirm,
    () => firmsApi.updateFirm(firmId, { name }),
    (firm: FirmDto) => `The firm is now called ${firm.name}.`,
  );
}

/** Sets or removes a firm's description (PATCH private/firms/{id}). */
export function* describeFirm(
  action: PayloadAction<{ firmId: string; description: string }>,
): Saga {
  const { firmId, description } = action.payload;
  yield* call(
    changeFirm,
    () => firmsApi.updateFirm(firmId, { description }),
    (firm: FirmDto) =>
      firm.description
        ? `The description of ${firm.name} was saved.`
        : `${firm.name} has no description now: no firm switcher lists it.`,
  );
}

/** Disables or enables a firm (POST private/firms/{id}/disable or /enable). */
export function* switchFirm(action: PayloadAction<{ firmId: string }>): Saga {
  const disabled = firmsActions.disableRequested.match(action);
  yield* call(
    changeFirm,
    () => firmsApi.setFirmDisabled(action.payload.firmId, disabled),
    (firm: FirmDto) => `The firm ${firm.name} was ${disabled ? 'disabled' : 'enabled'}.`,
  );
}

/** Reads the members of the firm whose members dialog opened. */
export function* loadMembers(
  action: PayloadAction<{ kind: FirmDialogKind; firmId?: string }>,
): Saga {
  const { kind, firmId } = action.payload;
  if (kind !== 'members' || !firmId) return;
  try {
    const items = yield* call(firmsApi.fetchFirmMembers, firmId);
    yield* put(firmsActions.membersLoaded({ firmId, items }));
  } catch (error) {
    yield* put(firmsActions.membersFailed({ firmId, message: errorMessage(error) }));
  }
}

/** Gives an existing user a role in a firm. */
export function* addMember(
  action: PayloadAction<{ firmId: string; username: string; role: FirmRole }>,
): Saga {
  const { firmId, username, role } = action.payload;
  try {
    const member = yield* call(firmsApi.addFirmMember, firmId, {
      username,
      role,
    });
    yield* put(firmsActions.memberSaved({ firmId, member }));
    yield* call(notifySuccess, `${member.username} was added as ${member.role}.`);
  } catch (error) {
    yield* put(firmsActions.memberChangeFailed(errorMessage(error)));
  }
}

/** Changes a member's role. */
export function* changeRole(
  action: PayloadAction<{ firmId: string; userId: string; role: FirmRole }>,
): Saga {
  const { firmId, userId, role } = action.payload;
  try {
    const member = yield* call(firmsApi.changeFirmRole, firmId, userId, role);
    yield* put(firmsActions.memberSaved({ firmId, member }));
    yield* call(notifySuccess, `${member.username} is now ${member.role}.`);
  } catch (error) {
    yield* put(firmsActions.memberChangeFailed(errorMessage(error)));
  }
}

/** Removes a member from a firm. */
export function* removeMember(action: PayloadAction<{ firmId: string; userId: string }>): Saga {
  const { firmId, userId } = action.payload;
  try {
    yield* call(firmsApi.removeFirmMember, firmId, userId);
    yield* put(firmsActions.memberRemoved({ firmId, userId }));
    yield* call(notifySuccess, 'The member was removed from the firm.');
  } catch (error) {
    yield* put(firmsActions.memberChangeFailed(errorMessage(error)));
  }
}

/** Root saga of the Firms section. */
export function* firmsSaga(): Saga {
  yield* all([
    takeLatest(firmsActions.listRequested.type, safely(loadFirms)),
    takeLeading(firmsActions.createRequested.type, safely(createFirm)),
    takeLeading(firmsActions.renameRequested.type, safely(renameFirm)),
    takeLeading(firmsActions.describeRequested.type, safely(describeFirm)),
    takeLeading(firmsActions.disableRequested.type, safely(switchFirm)),
    takeLeading(firmsActions.enableRequested.type, safely(switchFirm)),
    takeLatest(firmsActions.dialogOpened.type, safely(loadMembers)),
    takeLeading(firmsActions.memberAddRequested.type, safely(addMember)),
    takeLeading(firmsActions.memberRoleChangeRequested.type, safely(changeRole)),
    takeLeading(firmsActions.memberRemoveRequested.type, safely(removeMember)),
  ]);
}
