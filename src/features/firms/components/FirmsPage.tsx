/**
 * /admin/firms (firm provisioning; docs/architecture.md "Firm provisioning"): the operator's list
 * of firm databases — name, description, disabled, member count — with create, rename, describe,
 * disable / enable and members (add an existing user with a role, change the role, remove)
 * dialogs. Operators only (the admin area shows it to them; the server refuses everyone else).
 * Loaded on demand (AdminPage imports it lazily). Every action is a button with a label naming
 * the firm, and the list wraps under each firm's name on a phone.
 */
import {
  EditOutlined,
  FileTextOutlined,
  PlusOutlined,
  PoweroffOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { Alert, Button, Input, List, Modal, Select, Space, Spin, Tag } from 'antd';
import { useEffect, useId, useState } from 'react';
import {
  FIRM_DESCRIPTION_MAX_LENGTH,
  FIRM_NAME_MAX_LENGTH,
  FIRM_ROLES,
  firmDescriptionProblem,
  firmNameProblem,
  type FirmDto,
  type FirmMemberDto,
  type FirmRole,
} from '@common/firms';
import { plural } from '@common/text';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import {
  selectFirmCounts,
  selectFirmDialog,
  selectFirmMemberChange,
  selectFirmMembers,
  selectFirms,
  selectSelectedFirm,
} from '../firmsSelectors';
import { firmsActions } from '../firmsSlice';

/** Words of each role an operator gives. */
const FIRM_ROLE_LABELS: Record<FirmRole, string> = {
  admin: 'Administrator',
  member: 'Member',
  read_only: 'Read-only member',
};

const ROLE_OPTIONS = FIRM_ROLES.map((role) => ({ value: role, label: FIRM_ROLE_LABELS[role] }));

/** Shown where a firm has no description (SPEC section 3: only described firms are listed). */
const NO_DESCRIPTION_TEXT = 'No description: not listed in firm switchers';

/** "3 members" for a firm. */
function firmMembersText(firm: FirmDto): string {
  return `${firm.memberCount} ${plural(firm.memberCount, 'member')}`;
}

/** The request's error inside a dialog. */
function DialogError({ message }: { message: string | null }) {
  return message ? <Alert type="error" role="alert" showIcon title={message} /> : null;
}

/** Create (name and description), rename (name) or describe (description). */
function FirmTextDialog({
  kind,
  firm,
}: {
  kind: 'create' | 'rename' | 'describe';
  firm: FirmDto | null;
}) {
  const dispatch = useAppDispatch();
  const dialog = useAppSelector(selectFirmDialog);
  const [name, setName] = useState(firm?.name ?? '');
  const [description, setDescription] = useState(firm?.description ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const nameId = useId();
  const descriptionId = useId();
  const hintId = useId();
  const submit = () => {
    const found =
      (kind !== 'describe' ? firmNameProblem(name) : null) ??
      (kind !== 'rename' ? firmDescriptionProblem(description) : null);
    if (found) {
      setProblem(found);
      return;
    }
    if (kind === 'create')
      dispatch(firmsActions.createRequested({ name: name.trim(), description }));
    else if (kind === 'rename' && firm)
      dispatch(firmsActions.renameRequested({ firmId: firm.id, name: name.trim() }));
    else if (firm) dispatch(firmsActions.describeRequested({ firmId: firm.id, description }));
  };
  const titles = {
    create: ['Create firm', 'Create'],
    rename: [`Rename ${firm?.name ?? ''}`, 'Rename'],
    describe: [`Description of ${firm?.name ?? ''}`, 'Save'],
  } as const;
  return (
    <Modal
      open
      title={titles[kind][0]}
      okText={titles[kind][1]}
      cancelText="Cancel"
      confirmLoading={dialog.status === 'loading'}
      onOk={submit}
      onCancel={() => dispatch(firmsActions.dialogClosed())}
      destroyOnHidden
    >
      <div className="admin-dialog">
        {kind !== 'describe' ? (
          <div className="admin-field">
            <label htmlFor={nameId}>Firm name</label>
            <Input
              id={nameId}
              value={name}
              maxLength={FIRM_NAME_MAX_LENGTH}
              autoFocus
              onChange={(event) => {
                setName(event.target.value);
                setProblem(null);
              }}
              onPressEnter={submit}
            />
          </div>
        ) : null}
        {kind !== 'rename' ? (
          <div className="admin-field">
            <label htmlFor={descriptionId}>Description</label>
            <Input
              id={descriptionId}
              value={description}
              maxLength={FIRM_DESCRIPTION_MAX_LENGTH}
              autoFocus={kind === 'describe'}
              aria-describedby={hintId}
              onChange={(event) => {
                setDescription(event.target.value);
                setProblem(null);
              }}
              onPressEnter={submit}
            />
            <span id={hintId} className="admin-muted">
              Users see the description in the firm switcher. A firm without one is not listed
              there, and of firms with the same description only one is.
            </span>
          </div>
        ) : null}
        <DialogError message={problem ?? (dialog.status === 'failed' ? dialog.error : null)} />
      </div>
    </Modal>
  );
}

/** Asks before disabling or enabling a firm. */
function FirmSwitchDialog({ firm, disable }: { firm: FirmDto; disable: boolean }) {
  const dispatch = useAppDispatch();
  const dialog = useAppSelector(selectFirmDialog);
  const request = disable ? firmsActions.disableRequested : firmsActions.enableRequested;
  return (
    <Modal
      open
      title={disable ? 'Disable firm' : 'Enable firm'}
      okText={disable ? 'Disable' : 'Enable'}
      okButtonProps={{ danger: disable }}
      cancelText="Cancel"
      confirmLoading={dialog.status === 'loading'}
      onOk={() => dispatch(request({ firmId: firm.id }))}
      onCancel={() => dispatch(firmsActions.dialogClosed())}
      destroyOnHidden
    >
      <div className="admin-dialog">
        {disable ? (
          <p>
            Disable <strong>{firm.name}</strong>? Everyone signed in to it is signed out at once,
            nobody can sign in to it or switch to it, and it leaves the firm switchers. Its
            documents and history are kept; you can enable it again.
          </p>
        ) : (
          <p>
            Enable <strong>{firm.name}</strong> again? Its members can sign in to it and switch to
            it again.
          </p>
        )}
        <DialogError message={dialog.status === 'failed' ? dialog.error : null} />
      </div>
    </Modal>
  );
}

/** One member's row: name, role select, remove. */
function MemberRow({
  firm,
  member,
  busy,
}: {
  firm: FirmDto;
  member: FirmMemberDto;
  busy: boolean;
}) {
  const dispatch = useAppDispatch();
  const name = `${member.firstName} ${member.lastName}`.trim() || member.username;
  return (
    <List.Item
      aria-label={name}
      actions={[
        <Select
          key="role"
          className="firm-role-select"
          aria-label={`Role of ${name}`}
          value={member.role as FirmRole}
          options={ROLE_OPTIONS}
          disabled={busy}
          onChange={(role: FirmRole) =>
            dispatch(
              firmsActions.memberRoleChangeRequested({
                firmId: firm.id,
                userId: member.userId,
                role,
              }),
            )
          }
        />,
        <Button
          key="remove"
          size="small"
          danger
          disabled={busy}
          aria-label={`Remove ${name} from ${firm.name}`}
          onClick={() =>
            dispatch(firmsActions.memberRemoveRequested({ firmId: firm.id, userId: member.userId }))
          }
        >
          Remove
        </Button>,
      ]}
    >
      <List.Item.Meta
        title={name}
        description={`${member.username}${member.disabled ? ' · disabled in this firm' : ''}`}
      />
    </List.Item>
  );
}

/** The members of a firm: add an existing user with a role, change a role, remove. */
function FirmMembersDialog({ firm }: { firm: FirmDto }) {
  const dispatch = useAppDispatch();
  const members = useAppSelector(selectFirmMembers);
  const change = useAppSelector(selectFirmMemberChange);
  const [username, setUsername] = useState('');
  const [role, setRole] = useState<FirmRole>('member');
  const usernameId = useId();
  const busy = change.status === 'loading';
  const add = () => {
    if (username.trim() === '' || busy) return;
    dispatch(firmsActions.memberAddRequested({ firmId: firm.id, username: username.trim(), role }));
    setUsername('');
  };
  let list;
  if (members.status === 'failed') {
    list = <DialogError message={members.error} />;
  } else if (members.status !== 'succeeded') {
    list = (
      <div role="status">
        <Spin description="Loading members…" />
      </div>
    );
  } else {
    list = (
      <div role="group" aria-label={`Members of ${firm.name}`} className="admin-scroll">
        <List
          size="small"
          dataSource={members.items}
          locale={{ emptyText: 'No members yet. Add an administrator first.' }}
          renderItem={(member) => (
            <MemberRow key={member.userId} firm={firm} member={member} busy={busy} />
          )}
        />
      </div>
    );
  }
  return (
    <Modal
      open
      title={`Members of ${firm.name}`}
      footer={<Button onClick={() => dispatch(firmsActions.dialogClosed())}>Close</Button>}
      onCancel={() => dispatch(firmsActions.dialogClosed())}
      destroyOnHidden
    >
      <div className="admin-dialog">
        {list}
        <div className="admin-field">
          <label htmlFor={usernameId}>Add an existing user by username</label>
          <Space.Compact block>
            <Input
              id={usernameId}
              value={username}
              autoComplete="off"
              onChange={(event) => setUsername(event.target.value)}
              onPressEnter={add}
            />
            <Select
              aria-label="Role of the new member"
              className="firm-role-select"
              value={role}
              options={ROLE_OPTIONS}
              onChange={(value: FirmRole) => setRole(value)}
            />
            <Button type="primary" disabled={username.trim() === '' || busy} onClick={add}>
              Add
            </Button>
          </Space.Compact>
        </div>
        <DialogError message={change.status === 'failed' ? change.error : null} />
      </div>
    </Modal>
  );
}

/** The open dialog of the Firms section. */
function FirmDialogs() {
  const dialog = useAppSelector(selectFirmDialog);
  const firm = useAppSelector(selectSelectedFirm);
  if (dialog.kind === 'create') return <FirmTextDialog kind="create" firm={null} />;
  if (!firm) return null;
  switch (dialog.kind) {
    case 'rename':
    case 'describe':
      return <FirmTextDialog key={`${dialog.kind}-${firm.id}`} kind={dialog.kind} firm={firm} />;
    case 'disable':
    case 'enable':
      return <FirmSwitchDialog key={firm.id} firm={firm} disable={dialog.kind === 'disable'} />;
    case 'members':
      return <FirmMembersDialog key={firm.id} firm={firm} />;
    default:
      return null;
  }
}

/** One firm's row: name, state, description, member count and its actions. */
function FirmRow({ firm }: { firm: FirmDto }) {
  const dispatch = useAppDispatch();
  const open = (kind: 'rename' | 'describe' | 'disable' | 'enable' | 'members') =>
    dispatch(firmsActions.dialogOpened({ kind, firmId: firm.id }));
  return (
    <List.Item
      aria-label={firm.name}
      actions={[
        <Button
          key="members"
          size="small"
          icon={<TeamOutlined aria-hidden />}
          aria-label={`Members of ${firm.name}`}
          onClick={() => open('members')}
        >
          Members
        </Button>,
        <Button
          key="rename"
          size="small"
          icon={<EditOutlined aria-hidden />}
          aria-label={`Rename ${firm.name}`}
          onClick={() => open('rename')}
        >
          Rename
        </Button>,
        <Button
          key="describe"
          size="small"
          icon={<FileTextOutlined aria-hidden />}
          aria-label={`Description of ${firm.name}`}
          onClick={() => open('describe')}
        >
          Description
        </Button>,
        <Button
          key="switch"
          size="small"
          danger={!firm.disabled}
          icon={<PoweroffOutlined aria-hidden />}
          aria-label={`${firm.disabled ? 'Enable' : 'Disable'} ${firm.name}`}
          onClick={() => open(firm.disabled ? 'enable' : 'disable')}
        >
          {firm.disabled ? 'Enable' : 'Disable'}
        </Button>,
      ]}
    >
      <List.Item.Meta
        title={
          <span>
            {firm.name} {firm.disabled ? <Tag color="red">Disabled</Tag> : null}
          </span>
        }
        description={
          <span>
            {firm.description ?? <span className="admin-muted">{NO_DESCRIPTION_TEXT}</span>} ·{' '}
            {firmMembersText(firm)}
          </span>
        }
      />
    </List.Item>
  );
}

/** The Firms section of the admin area (operators only). */
export function FirmsPage() {
  const dispatch = useAppDispatch();
  const firms = useAppSelector(selectFirms);
  const counts = useAppSelector(selectFirmCounts);

  useEffect(() => {
    dispatch(firmsActions.listRequested());
  }, [dispatch]);

  let body;
  if (firms.status === 'failed') {
    body = (
      <Alert
        type="error"
        role="alert"
        showIcon
        title={firms.error}
        action={
          <Button size="small" onClick={() => dispatch(firmsActions.listRequested())}>
            Try again
          </Button>
        }
      />
    );
  } else if (firms.status !== 'succeeded' && firms.items.length === 0) {
    body = (
      <div className="list-loading" role="status">
        <Spin description="Loading firms…">
          <div className="list-loading-area" />
        </Spin>
      </div>
    );
  } else {
    body = (
      <div role="group" aria-label="Firm list" className="admin-scroll">
        <List
          dataSource={firms.items}
          locale={{ emptyText: 'No firms yet.' }}
          renderItem={(firm) => <FirmRow key={firm.id} firm={firm} />}
        />
      </div>
    );
  }

  return (
    <section className="admin-section" aria-label="Firms">
      <div className="admin-toolbar">
        <span className="admin-count" role="status">
          {firms.status === 'succeeded'
            ? `${counts.total} ${plural(counts.total, 'firm')}${
                counts.disabled > 0 ? `, ${counts.disabled} disabled` : ''
              }`
            : ''}
        </span>
        <Button
          type="primary"
          icon={<PlusOutlined aria-hidden />}
          onClick={() => dispatch(firmsActions.dialogOpened({ kind: 'create' }))}
        >
          Create firm
        </Button>
      </div>
      {body}
      <FirmDialogs />
    </section>
  );
}
