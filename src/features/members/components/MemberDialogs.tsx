/**
 * The member dialogs of SPEC section 2 (update, password, disable, enable, unlock, permission) and
 * the dialog that adds a member, for the selected member of the members slice. One dialog is open at
 * a time (`members.dialog.kind`); a failed request keeps it open with the server's message.
 * The permission dialog also removes all of the member's folder permissions at once.
 */
import { DeleteOutlined } from '@ant-design/icons';
import { Alert, App, Button, Input, Modal, Radio, Select, Spin } from 'antd';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { PASSWORD_MIN_LENGTH } from '@common/constants';
import { formatDate } from '@common/format';
import { MESSAGES } from '@common/messages';
import { loadPasswordChecker, passwordProblem } from '@common/passwordPolicy';
import { capitalize, plural, splitCamelCase } from '@common/text';
import type { Role } from '@common/session';
import type { DatabaseUserDto } from '@common/users';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import {
  memberDisplayName,
  roleLabel,
  selectMemberDialog,
  selectMemberPermissionsClear,
  selectMemberTeams,
  selectSelectedMember,
} from '../membersSelectors';
import { type MemberDialogKind, membersActions } from '../membersSlice';

/** The roles an administrator can give (guests come from sharing only, never from here). */
type MemberRole = Exclude<Role, 'guest'>;

/** The roles an administrator can give, in the order offered. */
const ROLES: readonly MemberRole[] = ['admin', 'member', 'read_only'];

/** What each role may do, shown beside it in the permission dialog (docs/roles.md). */
const ROLE_HELP: Record<MemberRole, string> = {
  admin: 'Everything, including the admin area and every restricted folder.',
  member: 'Files and folders, subject to folder permissions.',
  read_only: 'Browse, preview and download; cannot change anything.',
};

/** The dialogs' titles. */
const MEMBER_DIALOG_TITLES: Record<MemberDialogKind, string> = {
  create: 'Add member',
  update: 'Edit member',
  password: 'Change password',
  disable: 'Disable member',
  enable: 'Enable member',
  unlock: 'Unlock member',
  permission: 'Role and permissions',
};

/** A form field's label from its camel-case name: `firstName` → "First name" (SPEC section 5). */
export function fieldLabel(name: string): string {
  return capitalize(splitCamelCase(name));
}

/** A labelled text input. */
function Field({
  name,
  value,
  onChange,
  type = 'text',
  label = fieldLabel(name),
  autoComplete,
}: {
  name: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'password' | 'email';
  label?: string;
  autoComplete?: string;
}) {
  const id = useId();
  const Component = type === 'password' ? Input.Password : Input;
  return (
    <div className="admin-field">
      <label htmlFor={id}>{label}</label>
      <Component
        id={id}
        name={name}
        type={type === 'password' ? undefined : type}
        value={value}
        autoComplete={autoComplete}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

/** The request's error inside a dialog. */
function DialogError({ message }: { message: string | null }) {
  return message ? <Alert type="error" role="alert" showIcon title={message} /> : null;
}

/**
 * Checks a new password against the shared policy (common/passwordPolicy.ts: length, the
 * account's details, a zxcvbn strength score), then that the confirmation matches. The server
 * checks it again. The strength dictionaries load on first use (their own chunk).
 * @param account the member's details, given to the strength checker as its user dictionary
 * @returns the message to show, or null when the password may be sent
 */
async function newPasswordProblem(
  password: string,
  confirm: string,
  account: { username: string; firstName?: string; lastName?: string; email?: string | null },
): Promise<string | null> {
  let problem: string | null;
  try {
    problem = await passwordProblem(password, {
      username: account.username,
      userInputs: [account.firstName, account.lastName, account.email],
    });
  } catch {
    problem = null; // The checker could not be loaded: the server still checks the policy.
  }
  if (problem) return problem;
  if (password !== confirm) return 'The two passwords do not match.';
  return null;
}

/** Starts loading the password strength checker while a password dialog is open. */
function usePasswordChecker(): void {
  useEffect(() => {
    loadPasswordChecker().catch(() => undefined);
  }, []);
}

interface DialogProps {
  member: DatabaseUserDto | null;
  saving: boolean;
  error: string | null;
  onCancel: () => void;
}

/** The frame shared by the dialogs. */
function MemberModal({
  kind,
  saving,
  okText,
  danger,
  onOk,
  onCancel,
  children,
}: {
  kind: MemberDialogKind;
  saving: boolean;
  okText: string;
  danger?: boolean;
  onOk: () => void | Promise<void>;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <Modal
      open
      title={MEMBER_DIALOG_TITLES[kind]}
      okText={okText}
      cancelText="Cancel"
      okButtonProps={{ danger: danger ?? false }}
      confirmLoading={saving}
      onOk={() => void onOk()}
      onCancel={onCancel}
      destroyOnHidden
      maskClosable={!saving}
    >
      <div className="admin-dialog">{children}</div>
    </Modal>
  );
}

/** Adds a member to the firm (POST private/users). */
function CreateDialog({ saving, error, onCancel }: DialogProps) {
  const dispatch = useAppDispatch();
  const [fields, setFields] = useState({
    firstName: '',
    lastName: '',
    username: '',
    email: '',
    password: '',
  });
  const [role, setRole] = useState<Role>('member');
  const [problem, setProblem] = useState<string | null>(null);
  const set = (name: keyof typeof fields) => (value: string) => {
    setFields((current) => ({ ...current, [name]: value }));
    setProblem(null);
  };
  usePasswordChecker();
  const submit = async () => {
    if (fields.username.trim() === '') {
      setProblem(MESSAGES.usernameRequired);
      return;
    }
    const passwordError = await newPasswordProblem(fields.password, fields.password, fields);
    if (passwordError) {
      setProblem(passwordError);
      return;
    }
    dispatch(
      membersActions.memberCreateRequested({
        username: fields.username.trim(),
        firstName: fields.firstName.trim(),
        lastName: fields.lastName.trim(),
        email: fields.email.trim() || null,
        password: fields.password,
        role,
      }),
    );
  };
  return (
    <MemberModal
      kind="create"
      saving={saving}
      okText="Add member"
      onOk={submit}
      onCancel={onCancel}
    >
      <Field name="firstName" value={fields.firstName} onChange={set('firstName')} />
      <Field name="lastName" value={fields.lastName} onChange={set('lastName')} />
      <Field
        name="username"
        value={fields.username}
        onChange={set('username')}
        autoComplete="off"
      />
      <Field name="email" type="email" value={fields.email} onChange={set('email')} />
      <Field
        name="password"
        type="password"
        value={fields.password}
        onChange={set('password')}
        autoComplete="new-password"
      />
      <RolePicker value={role} onChange={setRole} />
      <DialogError message={problem ?? error} />
    </MemberModal>
  );
}

/** Changes a member's names, username and e-mail (PATCH private/users/{id}). */
function UpdateDialog({
  member,
  saving,
  error,
  onCancel,
}: DialogProps & { member: DatabaseUserDto }) {
  const dispatch = useAppDispatch();
  const [fields, setFields] = useState({
    firstName: member.firstName,
    lastName: member.lastName,
    username: member.username,
    email: member.email ?? '',
  });
  const [problem, setProblem] = useState<string | null>(null);
  const set = (name: keyof typeof fields) => (value: string) => {
    setFields((current) => ({ ...current, [name]: value }));
    setProblem(null);
  };
  const submit = () => {
    if (fields.username.trim() === '') {
      setProblem(MESSAGES.usernameRequired);
      return;
    }
    dispatch(
      membersActions.memberUpdateRequested({
        memberId: member.id,
        changes: {
          firstName: fields.firstName.trim(),
          lastName: fields.lastName.trim(),
          username: fields.username.trim(),
          email: fields.email.trim() || null,
        },
      }),
    );
  };
  return (
    <MemberModal kind="update" saving={saving} okText="Save" onOk={submit} onCancel={onCancel}>
      <Field name="firstName" value={fields.firstName} onChange={set('firstName')} />
      <Field name="lastName" value={fields.lastName} onChange={set('lastName')} />
      <Field name="username" value={fields.username} onChange={set('username')} />
      <Field name="email" type="email" value={fields.email} onChange={set('email')} />
      <DialogError message={problem ?? error} />
    </MemberModal>
  );
}

/** Sets a member's password (PATCH private/users/{id}/update_password). */
function PasswordDialog({
  member,
  saving,
  error,
  onCancel,
}: DialogProps & { member: DatabaseUserDto }) {
  const dispatch = useAppDispatch();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  usePasswordChecker();
  const submit = async () => {
    const found = await newPasswordProblem(password, confirm, member);
    if (found) {
      setProblem(found);
      return;
    }
    dispatch(membersActions.passwordChangeRequested({ memberId: member.id, password }));
  };
  return (
    <MemberModal
      kind="password"
      saving={saving}
      okText="Change password"
      onOk={submit}
      onCancel={onCancel}
    >
      <p>
        A new password for <strong>{memberDisplayName(member)}</strong>, at least{' '}
        {PASSWORD_MIN_LENGTH} characters and hard to guess (a few uncommon words together). Their
        other sessions end.
      </p>
      <Field
        name="newPassword"
        type="password"
        value={password}
        autoComplete="new-password"
        onChange={(value) => {
          setPassword(value);
          setProblem(null);
        }}
      />
      <Field
        name="confirmPassword"
        type="password"
        value={confirm}
        autoComplete="new-password"
        onChange={(value) => {
          setConfirm(value);
          setProblem(null);
        }}
      />
      <DialogError message={problem ?? error} />
    </MemberModal>
  );
}

/** The texts of the three confirmations. */
function confirmation(kind: 'disable' | 'enable' | 'unlock', member: DatabaseUserDto): ReactNode {
  const name = <strong>{memberDisplayName(member)}</strong>;
  switch (kind) {
    case 'disable':
      return (
        <p>
          Disable {name}? They are signed out at once and cannot sign in to this firm until an
          administrator enables them again.
        </p>
      );
    case 'enable':
      return <p>Enable {name}? They can sign in to this firm again.</p>;
    case 'unlock':
      return (
        <p>
          Unlock {name}? Sign-ins from an address that entered too many wrong passwords are locked
          {member.locked_at ? ` since ${formatDate(member.locked_at)}` : ''}
          {member.locked_until ? `, until ${formatDate(member.locked_until)}` : ''} (the account has{' '}
          {member.failed_logins} failed {plural(member.failed_logins, 'sign-in')} in a row). Other
          addresses were never locked. Unlocking lets every address sign in again at once.
        </p>
      );
  }
}

/** Disables, enables or unlocks the selected member. */
function StateDialog({
  kind,
  member,
  saving,
  error,
  onCancel,
}: DialogProps & { kind: 'disable' | 'enable' | 'unlock'; member: DatabaseUserDto }) {
  const dispatch = useAppDispatch();
  return (
    <MemberModal
      kind={kind}
      saving={saving}
      okText={capitalize(kind)}
      danger={kind === 'disable'}
      onOk={() => {
        dispatch(membersActions.memberStateChangeRequested({ memberId: member.id, change: kind }));
      }}
      onCancel={onCancel}
    >
      {confirmation(kind, member)}
      <DialogError message={error} />
    </MemberModal>
  );
}

/** A role picker with what each role may do. */
function RolePicker({ value, onChange }: { value: Role; onChange: (role: Role) => void }) {
  return (
    <Radio.Group
      aria-label="Role"
      className="admin-roles"
      value={value}
      onChange={(event) => onChange(event.target.value as Role)}
      options={ROLES.map((role) => ({
        value: role,
        label: (
          <span>
            {roleLabel(role)} <span className="admin-muted">— {ROLE_HELP[role]}</span>
          </span>
        ),
      }))}
    />
  );
}

/** The member's role (PATCH private/users/role/{id}) and the teams they belong to. */
function PermissionDialog({
  member,
  saving,
  error,
  onCancel,
}: DialogProps & { member: DatabaseUserDto }) {
  const dispatch = useAppDispatch();
  const teams = useAppSelector(selectMemberTeams);
  const [role, setRole] = useState<Role>(member.role);
  const submit = () => {
    if (role === member.role) {
      onCancel();
      return;
    }
    dispatch(membersActions.roleChangeRequested({ memberId: member.id, role }));
  };
  let teamText: ReactNode;
  if (teams.status === 'failed') teamText = <span role="alert">{teams.error}</span>;
  else if (teams.status !== 'succeeded') teamText = <Spin size="small" />;
  else if (teams.items.length === 0) teamText = 'Not in any team.';
  else {
    teamText = `${teams.items.length} ${plural(teams.items.length, 'team')}: ${teams.items
      .map((team) => team.name)
      .join(', ')}`;
  }
  return (
    <MemberModal kind="permission" saving={saving} okText="Save" onOk={submit} onCancel={onCancel}>
      <p>
        What <strong>{memberDisplayName(member)}</strong> may do in this firm. Restricted folders
        also need a folder permission for them or one of their teams.
      </p>
      <RolePicker value={role} onChange={setRole} />
      <p className="admin-member-teams" data-testid="member-teams">
        {teamText}
      </p>
      <DialogError message={error} />
      <MemberFolderPermissions member={member} />
    </MemberModal>
  );
}

/**
 * Removes every folder permission naming the member at once (DELETE folder_permissions/by_user),
 * after a confirmation; their teams' permissions stay.
 */
function MemberFolderPermissions({ member }: { member: DatabaseUserDto }) {
  const dispatch = useAppDispatch();
  const { modal } = App.useApp();
  const clear = useAppSelector(selectMemberPermissionsClear);
  const name = memberDisplayName(member);
  const mine = clear.memberId === member.id;
  const confirm = () => {
    void modal.confirm({
      title: `Remove all folder permissions of ${name}?`,
      content:
        'Every folder permission that names them is removed at once: restricted folders they ' +
        'could open only through such a permission are hidden from them. Permissions of their ' +
        'teams stay.',
      okText: 'Remove all',
      okButtonProps: { danger: true },
      onOk: () =>
        dispatch(membersActions.memberPermissionsClearRequested({ memberId: member.id, name })),
    });
  };
  return (
    <section className="admin-member-permissions" aria-label="Folder permissions">
      <h3 className="admin-subtitle">Folder permissions</h3>
      {mine && clear.status === 'succeeded' ? (
        <p role="status">No folder permission names {name} any more.</p>
      ) : (
        <Button
          danger
          size="small"
          icon={<DeleteOutlined aria-hidden />}
          loading={mine && clear.status === 'loading'}
          onClick={confirm}
        >
          Remove all folder permissions
        </Button>
      )}
      {mine && clear.status === 'failed' ? (
        <Alert type="error" role="alert" showIcon title={clear.error} />
      ) : null}
    </section>
  );
}

/** The open member dialog, if any (mounted once on the members page). */
export function MemberDialogs() {
  const dispatch = useAppDispatch();
  const dialog = useAppSelector(selectMemberDialog);
  const member = useAppSelector(selectSelectedMember);
  if (dialog.kind === null) return null;
  const props: DialogProps = {
    member,
    saving: dialog.status === 'loading',
    error: dialog.status === 'failed' ? dialog.error : null,
    onCancel: () => dispatch(membersActions.memberDialogClosed()),
  };
  if (dialog.kind === 'create') return <CreateDialog {...props} />;
  if (!member) return null;
  const key = `${dialog.kind}:${member.id}`;
  switch (dialog.kind) {
    case 'update':
      return <UpdateDialog key={key} {...props} member={member} />;
    case 'password':
      return <PasswordDialog key={key} {...props} member={member} />;
    case 'permission':
      return <PermissionDialog key={key} {...props} member={member} />;
    default:
      return <StateDialog key={key} {...props} kind={dialog.kind} member={member} />;
  }
}

/** A user the member selects offer: id and display name. */
export interface UserOption {
  id: string;
  name: string;
}

/** A searchable select of the firm's users (teams and keys use it). */
export function MemberSelect({
  users,
  value,
  onChange,
  label,
  mode,
}: {
  users: readonly UserOption[];
  value: string | string[] | undefined;
  onChange: (value: string | string[]) => void;
  label: string;
  mode?: 'multiple';
}) {
  return (
    <Select
      aria-label={label}
      className="admin-select"
      mode={mode}
      showSearch={{ optionFilterProp: 'label' }}
      value={value}
      placeholder={label}
      onChange={onChange}
      options={users.map((user) => ({ value: user.id, label: user.name }))}
    />
  );
}
