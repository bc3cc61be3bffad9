/**
 * /admin/examiner-export: the examiner's export of a contact's folders, a date range or the whole
 * firm (a folder is exported from its side panel: "Export for examiner").
 */
import { useEffect } from 'react';
import { useAppDispatch } from '@src/store/hooks';
import { examinerExportActions } from '../examinerExportSlice';
import { ExaminerExportForm } from './ExaminerExportForm';

/** The section's path below /admin and its tab label. */
export const EXAMINER_SECTION = { path: 'examiner-export', label: 'Examiner export' } as const;

/** The admin section. */
export function ExaminerExportPage() {
  const dispatch = useAppDispatch();
  useEffect(() => {
    dispatch(examinerExportActions.pageOpened());
  }, [dispatch]);
  return (
    <section className="examiner-page" aria-label={EXAMINER_SECTION.label}>
      <h2>Export records for an examiner</h2>
      <p>
        To export one folder, open its details (the folder’s “Details”) and choose{' '}
        <strong>Export for examiner</strong>.
      </p>
      <ExaminerExportForm folder={null} />
    </section>
  );
}
