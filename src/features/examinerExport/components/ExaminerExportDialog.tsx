/**
 * The examiner's export of a folder, from its side panel (administrators only): the button
 * "Export for examiner" and the dialog with the export form, opened for that folder. Closing the
 * dialog leaves a running download to the browser.
 */
import { AuditOutlined } from '@ant-design/icons';
import { Button, Modal } from 'antd';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectIsAdmin } from '@src/features/session/sessionSelectors';
import { selectExaminerExport } from '../examinerExportSelectors';
import { examinerExportActions } from '../examinerExportSlice';
import { ExaminerExportForm } from './ExaminerExportForm';

/** The dialog's title. */
const EXAMINER_DIALOG_TITLE = 'Export for an examiner';

/** The dialog; shown while the slice says it is open. */
export function ExaminerExportDialog() {
  const dispatch = useAppDispatch();
  const { dialogOpen, folder } = useAppSelector(selectExaminerExport);
  return (
    <Modal
      open={dialogOpen}
      title={EXAMINER_DIALOG_TITLE}
      onCancel={() => dispatch(examinerExportActions.dialogClosed())}
      footer={<Button onClick={() => dispatch(examinerExportActions.dialogClosed())}>Close</Button>}
      destroyOnHidden
    >
      {dialogOpen ? <ExaminerExportForm folder={folder} /> : null}
    </Modal>
  );
}

/** The side panel's button for a folder, for administrators of the firm; renders the dialog. */
export function ExaminerExportButton({ folder }: { folder: { id: string; name: string } }) {
  const dispatch = useAppDispatch();
  const isAdmin = useAppSelector(selectIsAdmin);
  if (!isAdmin) return null;
  return (
    <>
      <Button
        icon={<AuditOutlined aria-hidden />}
        onClick={() =>
          dispatch(examinerExportActions.dialogOpened({ id: folder.id, name: folder.name }))
        }
      >
        Export for examiner
      </Button>
      <ExaminerExportDialog />
    </>
  );
}
