/** Selectors of the examiner's export feature. */
import type { RootState } from '@src/store/store';
import type { ExaminerExportState } from './examinerExportSlice';

/** The examiner's export slice. */
export const selectExaminerExport = (state: RootState): ExaminerExportState => state.examinerExport;
/** The contact chooser's search and matches. */
export const selectExaminerContacts = (state: RootState): ExaminerExportState['contacts'] =>
  state.examinerExport.contacts;
