/**
 * /admin/integrations (SPEC sections 4 and 7): the current firm's integration
 * switch (enable / disable) and its partner keys (create, rotate, delete). A new or rotated key
 * is shown once, with a copy button and a warning: the server keeps only its sha256. When GET
 * private/integrations fails the page says "Could not get integrations.".
 */
import { CopyOutlined, DeleteOutlined, PlusOutlined, SyncOutlined } from '@ant-design/icons';
import { Alert, App, Button, Input, Modal, Spin, Switch, Table } from 'antd';
import { useEffect, useId, useState } from 'react';
import { formatDate } from '@common/format';
import { PARTNER_APP_ID_PATTERN, type IntegrationKeyDto } from '@common/integrations';
import { capitalize, plural, splitCamelCase } from '@common/text';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import {
  selectCurrentDatabase,
  selectCurrentDatabaseId,
} from '@src/features/session/sessionSelectors';
import { selectUserOptions } from '@src/features/folderPermissions/folderPermissionsSelectors';
import { folderPermissionsActions } from '@src/features/folderPermissions/folderPermissionsSlice';
import {
  selectCurrentIntegration,
  selectIntegrations,
  selectIntegrationsState,
} from '../integrationsSelectors';
import { integrationsActions } from '../integrationsSlice';
import { MemberSelect } from '@src/features/members/components/MemberDialogs';

/** The warning beside a key shown once. */
const KEY_ONCE_WARNING =
  'Copy this key now and keep it somewhere safe. It is shown only this once: Dossier keeps only a fingerprint of it. If it is lost, rotate the key.';

/** The key table's columns, named by the IntegrationKeyDto field they show. */
const KEY_COLUMNS = [
  'userName',
  'partnerAppId',
  'prefix',
  'createdAt',
  'rotatedAt',
  'lastUsedAt',
] as const;

/** A column title from its field name: `partnerAppId` → "Partner app id" (SPEC section 5). */
function columnTitle(field: string): string {
  return capitalize(splitCamelCase(field));
}

const partnerPattern = new RegExp(PARTNER_APP_ID_PATTERN);

/** The switch of the current firm. */
function IntegrationSwitch() {
  const dispatch = useAppDispatch();
  const integrations = useAppSelector(selectIntegrations);
  const current = useAppSelector(selectCurrentIntegration);
  const database = useAppSelector(selectCurrentDatabase);
  const { switching, switchError } = useAppSelector(selectIntegrationsState);
  const firm = database?.description || database?.name || 'this firm';

  if (integrations.status === 'failed') {
    return (
      <Alert
        type="error"
        role="alert"
        showIcon
        title={integrations.error}
        action={
          <Button
            size="small"
            onClick={() => dispatch(integrationsActions.integrationsRequested())}
          >
            Try again
          </Button>
        }
      />
    );
  }
  if (!current) {
    return integrations.status === 'succeeded' ? (
      <p className="admin-muted">Integrations of {firm} cannot be managed from this account.</p>
    ) : (
      <Spin size="small" />
    );
  }
  return (
    <div className="admin-integration-switch">
      <Switch
        checked={current.enabled}
        loading={switching === current.databaseId}
        aria-label={`Integrations for ${firm}`}
        onChange={(enabled) =>
          dispatch(integrationsActions.switchRequested({ databaseId: current.databaseId, enabled }))
        }
      />
      <span>
        Integrations for <strong>{firm}</strong> are{' '}
        <strong>{current.enabled ? 'enabled' : 'disabled'}</strong>.{' '}
        {current.enabled
          ? 'Partner apps can sign users in with their keys.'
          : 'Partner keys and sign-in tokens do not work.'}
        {current.updatedAt ? (
          <span className="admin-muted"> Changed {formatDate(current.updatedAt)}.</span>
        ) : null}
      </span>
      {switchError ? <Alert type="error" role="alert" showIcon title={switchError} /> : null}
    </div>
  );
}

/** Creates a key for one member and a partner app. */
function CreateKeyDialog({ onClose }: { onClose: () => void }) {
  const dispatch = useAppDispatch();
  const users = useAppSelector(selectUserOptions);
  const { change, changeError } = useAppSelector(selectIntegrationsState);
  const [userId, setUserId] = useState<string | undefined>(undefined);
  const [partnerAppId, setPartnerAppId] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  const submit = () => {
    if (!userId) {
      setProblem('Choose the member the key signs in.');
      return;
    }
    if (!partnerPattern.test(partnerAppId.trim())) {
      setProblem('The partner app id is 1 to 100 letters, digits, dots, dashes or underscores.');
      return;
    }
    dispatch(integrationsActions.keyCreateRequested({ userId, partnerAppId: partnerAppId.trim() }));
  };
  return (
    <Modal
      open
      title="Create partner key"
      okText="Create key"
      cancelText="Cancel"
      confirmLoading={change === 'loading'}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
    >
      <div className="admin-dialog">
        <div className="admin-field">
          <span>Member</span>
          <MemberSelect
            label="Member"
            users={users}
            value={userId}
            onChange={(value) => {
              setUserId(value as string);
              setProblem(null);
            }}
          />
        </div>
        <div className="admin-field">
          <label htmlFor={id}>{columnTitle('partnerAppId')}</label>
          <Input
            id={id}
            value={partnerAppId}
            placeholder="crm"
            onChange={(event) => {
              setPartnerAppId(event.target.value);
              setProblem(null);
            }}
          />
        </div>
        {problem || changeError ? (
          <Alert type="error" role="alert" showIcon title={problem ?? changeError} />
        ) : null}
      </div>
    </Modal>
  );
}

/** Shows a key just created or rotated, once. */
function NewKeyDialog() {
  const dispatch = useAppDispatch();
  const { newKey } = useAppSelector(selectIntegrationsState);
  const { message } = App.useApp();
  if (!newKey) return null;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(newKey.key);
      void message.success('Key copied.');
    } catch {
      void message.error('The key could not be copied; select it and copy it by hand.');
    }
  };
  return (
    <Modal
      open
      title="Your new partner key"
      closable={false}
      maskClosable={false}
      keyboard={false}
      footer={
        <Button type="primary" onClick={() => dispatch(integrationsActions.newKeyDismissed())}>
          I have copied the key
        </Button>
      }
      destroyOnHidden
    >
      <div className="admin-dialog">
        <Alert type="warning" showIcon title={KEY_ONCE_WARNING} />
        <p>
          Key of <strong>{newKey.userName}</strong> for <strong>{newKey.partnerAppId}</strong>:
        </p>
        <Input.TextArea
          aria-label="New key"
          readOnly
          autoSize
          value={newKey.key}
          className="admin-key"
          onFocus={(event) => event.target.select()}
        />
        <Button icon={<CopyOutlined aria-hidden />} onClick={() => void copy()}>
          Copy key
        </Button>
      </div>
    </Modal>
  );
}

/** The firm's keys. */
function KeysSection() {
  const dispatch = useAppDispatch();
  const { keys, change, changeError } = useAppSelector(selectIntegrationsState);
  const { modal } = App.useApp();
  const [creating, setCreating] = useState(false);
  const { newKey } = useAppSelector(selectIntegrationsState);

  useEffect(() => {
    // A created key closes the create dialog (the new key dialog takes over).
    if (newKey) setCreating(false);
  }, [newKey]);

  const confirmRotate = (key: IntegrationKeyDto) => {
    void modal.confirm({
      title: `Rotate the ${key.partnerAppId} key of ${key.userName}?`,
      content: 'The current key stops working at once. The new key is shown once.',
      okText: 'Rotate',
      cancelText: 'Cancel',
      onOk: () => {
        dispatch(
          integrationsActions.keyRotateRequested({
            userId: key.userId,
            partnerAppId: key.partnerAppId,
          }),
        );
      },
    });
  };
  const confirmDelete = (key: IntegrationKeyDto) => {
    void modal.confirm({
      title: `Delete the ${key.partnerAppId} key of ${key.userName}?`,
      content: 'The partner app can no longer sign this member in with it.',
      okText: 'Delete',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      onOk: () => {
        dispatch(
          integrationsActions.keyDeleteRequested({
            userId: key.userId,
            partnerAppId: key.partnerAppId,
          }),
        );
      },
    });
  };

  const dateCell = (value: string | null) => (value ? formatDate(value) : '—');
  const columns = [
    ...KEY_COLUMNS.map((field) => ({
      key: field,
      dataIndex: field,
      title: field === 'userName' ? 'Member' : columnTitle(field),
      // On a phone the member, the partner app and the actions stay (admin.css).
      className: field === 'userName' || field === 'partnerAppId' ? undefined : 'admin-col-wide',
      render:
        field === 'createdAt' || field === 'rotatedAt' || field === 'lastUsedAt'
          ? dateCell
          : field === 'prefix'
            ? (value: string) => <code>{value}…</code>
            : undefined,
    })),
    {
      key: 'actions',
      title: 'Actions',
      render: (_: unknown, key: IntegrationKeyDto) => (
        <span className="admin-row-actions">
          <Button
            size="small"
            icon={<SyncOutlined aria-hidden />}
            aria-label={`Rotate the ${key.partnerAppId} key of ${key.userName}`}
            onClick={() => confirmRotate(key)}
          >
            Rotate
          </Button>{' '}
          <Button
            size="small"
            danger
            icon={<DeleteOutlined aria-hidden />}
            aria-label={`Delete the ${key.partnerAppId} key of ${key.userName}`}
            onClick={() => confirmDelete(key)}
          >
            Delete
          </Button>
        </span>
      ),
    },
  ];

  return (
    <section className="admin-keys" aria-label="Partner keys">
      <div className="admin-toolbar">
        <h2 className="admin-subtitle">Partner keys</h2>
        <span className="admin-count" role="status">
          {keys.status === 'succeeded'
            ? `${keys.items.length} ${plural(keys.items.length, 'key')}`
            : ''}
        </span>
        <Button
          type="primary"
          icon={<PlusOutlined aria-hidden />}
          onClick={() => {
            dispatch(integrationsActions.changeErrorCleared());
            dispatch(folderPermissionsActions.permissionablesRequested());
            setCreating(true);
          }}
        >
          Create key
        </Button>
      </div>
      <p className="admin-muted">
        A partner app (the CRM) uses a member&apos;s key to sign that member in to Dossier. Keys
        work only while integrations are enabled.
      </p>
      {keys.status === 'failed' ? (
        <Alert
          type="error"
          role="alert"
          showIcon
          title={keys.error}
          action={
            <Button size="small" onClick={() => dispatch(integrationsActions.keysRequested())}>
              Try again
            </Button>
          }
        />
      ) : (
        <Table<IntegrationKeyDto>
          size="small"
          rowKey="id"
          aria-label="Partner keys"
          loading={keys.status === 'loading'}
          pagination={false}
          columns={columns}
          dataSource={keys.items}
          locale={{ emptyText: 'No partner keys yet.' }}
        />
      )}
      {!creating && changeError ? (
        <Alert type="error" role="alert" showIcon title={changeError} closable />
      ) : null}
      {creating ? <CreateKeyDialog onClose={() => setCreating(false)} /> : null}
      <NewKeyDialog />
      {change === 'loading' && !creating ? <Spin size="small" /> : null}
    </section>
  );
}

/** The integrations page. */
export function IntegrationsPage() {
  const dispatch = useAppDispatch();
  const databaseId = useAppSelector(selectCurrentDatabaseId);
  useEffect(() => {
    dispatch(integrationsActions.integrationsRequested());
    dispatch(integrationsActions.keysRequested());
  }, [dispatch, databaseId]);
  return (
    <section className="admin-section admin-scroll" aria-label="Integrations">
      <IntegrationSwitch />
      <KeysSection />
    </section>
  );
}
