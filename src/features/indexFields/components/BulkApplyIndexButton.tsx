/**
 * The bulk toolbar action applying index values to the selected files: a dialog
 * with the apply-index form (SPEC section 4) whose values are applied to every selected file in
 * one call (POST applied_indexes with entity_ids). Hidden when no file is selected.
 */
import { TagsOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Spin } from 'antd';
import { Suspense, useEffect, useState } from 'react';
import { lazyNamed } from '@src/app/lazyNamed';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectApplyForm, selectBulkApply, selectIndexFields } from '../indexFieldsSelectors';
import { indexFieldsActions } from '../indexFieldsSlice';
import './indexFields.css';

/** The form (antd's DatePicker and Select): its own chunk, loaded when the dialog opens. */
const ApplyIndexForm = lazyNamed(() => import('./ApplyIndexForm'), 'ApplyIndexForm');

/** "Apply index values to 3 files". */
function bulkTitle(count: number): string {
  return `Apply index values to ${count.toLocaleString('en-US')} ${count === 1 ? 'file' : 'files'}`;
}

/** The bulk toolbar action applying index values to the selected files. */
export function BulkApplyIndexButton({ fileIds }: { fileIds: string[] }) {
  const dispatch = useAppDispatch();
  const [open, setOpen] = useState(false);
  const bulk = useAppSelector(selectBulkApply);
  const fields = useAppSelector(selectIndexFields);
  const form = useAppSelector((state) => selectApplyForm(state, 'bulk'));
  const fieldsStatus = fields.status;

  useEffect(() => {
    if (open && fieldsStatus === 'idle') dispatch(indexFieldsActions.fieldsRequested());
  }, [dispatch, open, fieldsStatus]);

  // The dialog closes itself once the values are applied.
  useEffect(() => {
    if (open && bulk.status === 'succeeded') setOpen(false);
  }, [open, bulk.status]);

  if (fileIds.length === 0) return null;
  const hasValues = Object.values(form).some((value) => value.trim() !== '');
  const submit = () => dispatch(indexFieldsActions.bulkApplyRequested({ fileIds }));
  const close = () => {
    setOpen(false);
    dispatch(indexFieldsActions.bulkReset());
  };

  return (
    <>
      <Button
        icon={<TagsOutlined aria-hidden />}
        onClick={() => {
          dispatch(indexFieldsActions.bulkReset());
          setOpen(true);
        }}
      >
        Index values…
      </Button>
      {open ? (
        <Modal
          open
          title={bulkTitle(fileIds.length)}
          okText="Apply"
          cancelText="Cancel"
          okButtonProps={{ disabled: !hasValues }}
          confirmLoading={bulk.status === 'loading'}
          onOk={submit}
          onCancel={close}
          destroyOnHidden
        >
          <div className="admin-dialog">
            <Suspense fallback={<Spin />}>
              <ApplyIndexForm form="bulk" onSubmit={submit} />
            </Suspense>
            {bulk.status === 'failed' && bulk.error ? (
              <Alert type="error" role="alert" showIcon title={bulk.error} />
            ) : null}
          </div>
        </Modal>
      ) : null}
    </>
  );
}
