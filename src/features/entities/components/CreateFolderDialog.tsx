/** The "New folder" dialog: a "Folder name" input checked with validateEntityName, "Create". */
import { Alert, App, Form, Input, Modal } from 'antd';
import { useEffect } from 'react';
import { MAX_NAME_LENGTH } from '@common/constants';
import { validateEntityName } from '@common/names';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectCreateFolder, selectCurrentFolder } from '../entitiesSelectors';
import { entitiesActions } from '../entitiesSlice';

interface CreateFolderValues {
  name: string;
}

/** The success message naming the folder as the server created it. */
function folderCreatedMessage(name: string): string {
  return `Folder “${name}” created.`;
}

/**
 * The dialog of `entities/createFolderDialogOpened`. Submitting dispatches
 * `entities/folderCreateRequested` with the name and the open folder as parent; the server's
 * error is shown in the dialog, and the final name in a success message.
 */
export function CreateFolderDialog() {
  const dispatch = useAppDispatch();
  const { message } = App.useApp();
  const { dialog, status, error, createdName } = useAppSelector(selectCreateFolder);
  const parent = useAppSelector(selectCurrentFolder);
  const [form] = Form.useForm<CreateFolderValues>();

  useEffect(() => {
    if (status === 'succeeded' && createdName)
      void message.success(folderCreatedMessage(createdName));
  }, [status, createdName, message]);

  const onFinish = ({ name }: CreateFolderValues) => {
    dispatch(entitiesActions.folderCreateRequested({ name: name.trim(), parentId: parent.id }));
  };

  return (
    <Modal
      open={dialog === 'open'}
      title="New folder"
      okText="Create"
      cancelText="Cancel"
      confirmLoading={status === 'loading'}
      onOk={() => form.submit()}
      onCancel={() => dispatch(entitiesActions.createFolderDialogClosed())}
      destroyOnHidden
    >
      <Form<CreateFolderValues>
        form={form}
        layout="vertical"
        name="create-folder"
        requiredMark={false}
        onFinish={onFinish}
        preserve={false}
      >
        <Form.Item
          label="Folder name"
          name="name"
          validateFirst
          rules={[
            {
              validator: (_rule, value: string | undefined) => {
                const problem = validateEntityName(value ?? '');
                return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
              },
            },
          ]}
        >
          <Input autoFocus maxLength={MAX_NAME_LENGTH} placeholder="e.g. Statements 2024" />
        </Form.Item>
        {status === 'failed' && error ? <Alert type="error" showIcon title={error} /> : null}
      </Form>
    </Modal>
  );
}
