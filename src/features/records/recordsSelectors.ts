/** Selectors of the records management feature. */
import type { RootState } from '@src/store/store';
import type { ProtectionEntry, RecordsState } from './recordsSlice';

/** The firm's retention schedules as last loaded. */
export const selectSchedules = (state: RootState): RecordsState['schedules'] =>
  state.records.schedules;
/** The firm's legal holds as last loaded. */
export const selectHolds = (state: RootState): RecordsState['holds'] => state.records.holds;
/** The disposition queue as last loaded. */
export const selectDisposition = (state: RootState): RecordsState['disposition'] =>
  state.records.disposition;
/** The index fields the schedule form offers. */
export const selectRecordsFields = (state: RootState): RecordsState['fields'] =>
  state.records.fields;
/** The hold form's contact search and matches. */
export const selectRecordsContacts = (state: RootState): RecordsState['contacts'] =>
  state.records.contacts;
/** The last change asked for and its outcome. */
export const selectRecordsChange = (state: RootState): RecordsState['change'] =>
  state.records.change;
/** The disposition approval and its outcome. */
export const selectApproval = (state: RootState): RecordsState['approval'] =>
  state.records.approval;
/** What protects a folder or file, or undefined before it is asked for. */
export const selectProtection = (state: RootState, id: string): ProtectionEntry | undefined =>
  state.records.protection[id];
/** The folder chooser's subfolders, by parent folder id. */
export const selectRecordsPicker = (state: RootState): RecordsState['picker'] =>
  state.records.picker;
