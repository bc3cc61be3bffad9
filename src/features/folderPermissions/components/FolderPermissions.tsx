/**
 * The folder permissions dialog (SPEC section 7 "Folder permissions"), opened by
 * the "Permissions" button of a folder's side panel (administrators only): the users and teams
 * allowed on the folder, add users/teams (GET private/permissionables), remove one, remove all.
 * A folder with permissions is visible only to them and to administrators, with everything inside.
 */
import { LockOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, App, Button, List, Modal, Select, Space, Spin } from 'antd';
import { useState } from 'react';
import { capitalize, plural } from '@common/text';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectIsAdmin } from '@src/features/session/sessionSelectors';
import {
  selectAddablePermissionables,
  selectFolderPermissions,
  selectPermissionables,
} from '../folderPermissionsSelectors';
import { type PermissionableRef, folderPermissionsActions } from '../folderPermissionsSlice';

/** What the folder's restriction means, by the number of its permissions. */
function restrictionText(count: number): string {
  if (count === 0) {
    return 'Everyone in the firm can see this folder. Adding a user or team restricts it to them and to administrators.';
  }
  return `Restricted: only the ${count} ${plural(count, 'permission')} below (users, and members of teams) and administrators can see this folder and everything inside it.`;
}

/** Splits a select value `type:id` back into a permissionable. */
function parseRef(value: string): PermissionableRef {
  const index = value.indexOf(':');
  return {
    permissionable_type: value.slice(0, index) as PermissionableRef['permissionable_type'],
    permissionable_id: value.slice(index + 1),
  };
}

/** The dialog; mounted by the button, shown while `admin.folderPermissions.folder` is set. */
function FolderPermissionsDialog() {
  const dispatch = useAppDispatch();
  const state = useAppSelector(selectFolderPermissions);
  const permissionables = useAppSelector(selectPermissionables);
  const addable = useAppSelector(selectAddablePermissionables);
  const { modal } = App.useApp();
  const [adding, setAdding] = useState<string[]>([]);
  const folder = state.folder;
  if (!folder) return null;
  const busy = state.change === 'loading';
  const close = () => {
    setAdding([]);
    dispatch(folderPermissionsActions.folderPermissionsClosed());
  };

  let list;
  if (state.status === 'failed') {
    list = (
      <Alert
        type="error"
        role="alert"
        showIcon
        title={state.error}
        action={
          <Button
            size="small"
            onClick={() => dispatch(folderPermissionsActions.folderPermissionsOpened(folder))}
          >
            Try again
          </Button>
        }
      />
    );
  } else if (state.status === 'loading' && state.items.length === 0) {
    list = <Spin size="small" />;
  } else {
    list = (
      <div role="group" aria-label="Folder permissions">
        <List
          size="small"
          dataSource={state.items}
          locale={{ emptyText: 'No permissions: the folder is not restricted.' }}
          renderItem={(item) => {
            const name = item.name || item.permissionable_id;
            return (
              <List.Item
                actions={[
                  <Button
                    key="remove"
                    size="small"
                    disabled={busy}
                    aria-label={`Remove ${name}`}
                    onClick={() =>
                      dispatch(
                        folderPermissionsActions.permissionRemoveRequested({
                          folderId: folder.id,
                          permissionId: item.id,
                        }),
                      )
                    }
                  >
                    Remove
                  </Button>,
                ]}
              >
                <Space>
                  {item.permissionable_type === 'team' ? (
                    <TeamOutlined aria-hidden />
                  ) : (
                    <UserOutlined aria-hidden />
                  )}
                  <span>{name}</span>
                  <span className="admin-muted">{capitalize(item.permissionable_type)}</span>
                </Space>
              </List.Item>
            );
          }}
        />
      </div>
    );
  }

  const confirmClear = () => {
    void modal.confirm({
      title: `Remove all permissions of “${folder.name}”?`,
      content: 'Everyone in the firm will see the folder and everything inside it again.',
      okText: 'Remove all',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      onOk: () => {
        dispatch(folderPermissionsActions.permissionsClearRequested({ folderId: folder.id }));
      },
    });
  };

  return (
    <Modal
      open
      title={`Permissions of “${folder.name}”`}
      onCancel={close}
      footer={[
        <Button
          key="clear"
          danger
          disabled={busy || state.items.length === 0}
          onClick={confirmClear}
        >
          Remove all
        </Button>,
        <Button key="close" type="primary" onClick={close}>
          Close
        </Button>,
      ]}
      destroyOnHidden
    >
      <div className="admin-dialog">
        <p role="status">
          <LockOutlined aria-hidden /> {restrictionText(state.items.length)}
        </p>
        {list}
        <div className="admin-field">
          <span>Add users or teams</span>
          <Space.Compact block>
            <Select
              mode="multiple"
              aria-label="Users or teams to add"
              className="admin-select"
              placeholder="Users or teams"
              loading={permissionables.status === 'loading'}
              showSearch={{ optionFilterProp: 'label' }}
              value={adding}
              onChange={(value: string[]) => setAdding(value)}
              options={addable.map((item) => ({
                value: `${item.permissionable_type}:${item.permissionable_id}`,
                label: `${item.name} (${capitalize(item.permissionable_type)})`,
              }))}
            />
            <Button
              type="primary"
              disabled={adding.length === 0 || busy}
              onClick={() => {
                dispatch(
                  folderPermissionsActions.permissionsAddRequested({
                    folderId: folder.id,
                    permissionables: adding.map(parseRef),
                  }),
                );
                setAdding([]);
              }}
            >
              Add
            </Button>
          </Space.Compact>
        </div>
        {permissionables.status === 'failed' ? (
          <Alert type="error" role="alert" showIcon title={permissionables.error} />
        ) : null}
        {state.change === 'failed' ? (
          <Alert type="error" role="alert" showIcon title={state.changeError} />
        ) : null}
      </div>
    </Modal>
  );
}

/**
 * The "Permissions" button of a folder's side panel, shown to administrators only; it opens the
 * dialog for that folder.
 */
export function FolderPermissionsButton({ folder }: { folder: { id: string; name: string } }) {
  const dispatch = useAppDispatch();
  const isAdmin = useAppSelector(selectIsAdmin);
  if (!isAdmin) return null;
  return (
    <>
      <Button
        icon={<LockOutlined aria-hidden />}
        onClick={() =>
          dispatch(
            folderPermissionsActions.folderPermissionsOpened({ id: folder.id, name: folder.name }),
          )
        }
      >
        Permissions
      </Button>
      <FolderPermissionsDialog />
    </>
  );
}
