/** Selectors of the operator's Firms section (firm provisioning). */
import { createSelector } from '@reduxjs/toolkit';
import type { RootState } from '@src/store/rootReducer';

/** The list of firms: status, error and items (by name). */
export const selectFirms = (state: RootState) => state.firms.list;
/** The open dialog and its request. */
export const selectFirmDialog = (state: RootState) => state.firms.dialog;
/** The members of the firm whose members dialog is open. */
export const selectFirmMembers = (state: RootState) => state.firms.members;
/** The member change (add, role, remove) in flight, or its failure. */
export const selectFirmMemberChange = (state: RootState) => state.firms.memberChange;

/** The firm the open dialog is about, or null (create, or none open). */
export const selectSelectedFirm = createSelector(
  [selectFirms, selectFirmDialog],
  (firms, dialog) => firms.items.find((firm) => firm.id === dialog.firmId) ?? null,
);

/** How many firms there are, how many are disabled, and how many no switcher lists. */
export const selectFirmCounts = createSelector([selectFirms], (firms) => ({
  total: firms.items.length,
  disabled: firms.items.filter((firm) => firm.disabled).length,
  undescribed: firms.items.filter((firm) => !firm.description).length,
}));
