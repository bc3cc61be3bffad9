/**
 * /admin/members: the firm's members in a virtualised, searchable list (name,
 * username, e-mail, role, state) with the member dialogs of SPEC section 2 per row, and "Add
 * member". When GET private/users fails the page says "Could not get database users.".
 */
import {
  EditOutlined,
  KeyOutlined,
  LockOutlined,
  SafetyOutlined,
  StopOutlined,
  UnlockOutlined,
  UserAddOutlined,
  CheckCircleOutlined,
} from '@ant-design/icons';
import { Alert, Button, Input, Space, Spin, Tag } from 'antd';
import { memo, useCallback, useEffect } from 'react';
import { plural } from '@common/text';
import type { DatabaseUserDto } from '@common/users';
import { VirtualList } from '@src/components/VirtualList';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectCurrentDatabaseId, selectCurrentUser } from '@src/features/session/sessionSelectors';
import { MemberDialogs, fieldLabel } from './MemberDialogs';
import {
  memberDisplayName,
  roleLabel,
  selectMembers,
  selectVisibleMembers,
} from '../membersSelectors';
import { type MemberDialogKind, membersActions } from '../membersSlice';

/** The list's columns, named by the DatabaseUserDto field they show. */
const MEMBER_COLUMNS = ['firstName', 'lastName', 'username', 'email', 'role'] as const;

/** The count line: "3 members", or "1 member found" while searching. */
function memberCountText(total: number, searching: boolean): string {
  return `${total} ${plural(total, 'member')}${searching ? ' found' : ''}`;
}

/** A member's state tags: Locked, Disabled. */
function StateTags({ member }: { member: DatabaseUserDto }) {
  return (
    <>
      {member.locked ? (
        <Tag color="orange" icon={<LockOutlined aria-hidden />}>
          Locked
        </Tag>
      ) : null}
      {member.disabled ? (
        <Tag color="red" icon={<StopOutlined aria-hidden />}>
          Disabled
        </Tag>
      ) : null}
      {member.sso ? <Tag>Single sign-on</Tag> : null}
    </>
  );
}

/** One action button of a row; its accessible name says whom it concerns. */
function RowAction({
  kind,
  text,
  icon,
  member,
  danger,
}: {
  kind: MemberDialogKind;
  text: string;
  icon: React.ReactNode;
  member: DatabaseUserDto;
  danger?: boolean;
}) {
  const dispatch = useAppDispatch();
  const name = memberDisplayName(member);
  return (
    <Button
      size="small"
      icon={icon}
      danger={danger ?? false}
      aria-label={`${text} ${name}`}
      onClick={() => dispatch(membersActions.memberDialogOpened({ kind, memberId: member.id }))}
    >
      {text}
    </Button>
  );
}

/** One member row. */
const MemberRow = memo(function MemberRow({
  member,
  self,
}: {
  member: DatabaseUserDto;
  self: boolean;
}) {
  const name = memberDisplayName(member);
  return (
    <div role="listitem" aria-label={name} className="admin-row admin-member-row">
      <span className="admin-cell admin-cell-name">
        <strong>{name}</strong>
        {self ? <span className="admin-muted"> (you)</span> : null}
      </span>
      <span className="admin-cell">{member.username}</span>
      <span className="admin-cell">{member.email ?? ''}</span>
      <span className="admin-cell">
        <Tag color={member.role === 'admin' ? 'blue' : undefined}>{roleLabel(member.role)}</Tag>
        <StateTags member={member} />
      </span>
      <Space size={4} wrap className="admin-cell admin-row-actions">
        <RowAction kind="update" text="Edit" icon={<EditOutlined aria-hidden />} member={member} />
        <RowAction
          kind="password"
          text="Password"
          icon={<KeyOutlined aria-hidden />}
          member={member}
        />
        <RowAction
          kind="permission"
          text="Role"
          icon={<SafetyOutlined aria-hidden />}
          member={member}
        />
        {member.locked ? (
          <RowAction
            kind="unlock"
            text="Unlock"
            icon={<UnlockOutlined aria-hidden />}
            member={member}
          />
        ) : null}
        {member.disabled ? (
          <RowAction
            kind="enable"
            text="Enable"
            icon={<CheckCircleOutlined aria-hidden />}
            member={member}
          />
        ) : self ? null : (
          <RowAction
            kind="disable"
            text="Disable"
            icon={<StopOutlined aria-hidden />}
            member={member}
            danger
          />
        )}
      </Space>
    </div>
  );
});

/** The members page. */
export function MembersPage() {
  const dispatch = useAppDispatch();
  const members = useAppSelector(selectMembers);
  const visible = useAppSelector(selectVisibleMembers);
  const databaseId = useAppSelector(selectCurrentDatabaseId);
  const currentUser = useAppSelector(selectCurrentUser);

  useEffect(() => {
    dispatch(membersActions.membersRequested());
  }, [dispatch, databaseId]);

  const renderItem = useCallback(
    (member: DatabaseUserDto) => (
      <MemberRow member={member} self={member.id === currentUser?.userId} />
    ),
    [currentUser?.userId],
  );
  const itemKey = useCallback((member: DatabaseUserDto) => member.id, []);
  const loadMore = useCallback(() => dispatch(membersActions.membersMoreRequested()), [dispatch]);
  const searching = members.search.trim() !== '';
  let footer = null;
  if (members.more === 'loading') {
    footer = (
      <span role="status">
        <Spin size="small" /> Loading more members…
      </span>
    );
  } else if (members.more === 'failed') {
    footer = (
      <span role="alert">
        {members.error}{' '}
        <Button size="small" onClick={loadMore}>
          Try again
        </Button>
      </span>
    );
  }

  let body;
  if (members.status === 'failed') {
    body = (
      <Alert
        type="error"
        role="alert"
        showIcon
        title={members.error}
        action={
          <Button size="small" onClick={() => dispatch(membersActions.membersRequested())}>
            Try again
          </Button>
        }
      />
    );
  } else if (members.status !== 'succeeded' && members.items.length === 0) {
    body = (
      <div className="list-loading" role="status">
        <Spin description="Loading members…">
          <div className="list-loading-area" />
        </Spin>
      </div>
    );
  } else {
    body = (
      <>
        <div className="admin-row admin-header-row" aria-hidden>
          {MEMBER_COLUMNS.filter((column) => column !== 'lastName').map((column) => (
            <span key={column} className="admin-cell">
              {column === 'firstName' ? 'Name' : fieldLabel(column)}
            </span>
          ))}
          <span className="admin-cell">Actions</span>
        </div>
        <div className="admin-list">
          {visible.length === 0 ? (
            <p className="admin-muted">No member matches “{members.search}”.</p>
          ) : (
            <VirtualList
              items={visible}
              itemKey={itemKey}
              renderItem={renderItem}
              onEndReached={loadMore}
              footer={footer}
              role="list"
              ariaLabel="Members"
            />
          )}
        </div>
      </>
    );
  }

  return (
    <section className="admin-section" aria-label="Members">
      <div className="admin-toolbar">
        <Input.Search
          allowClear
          aria-label="Search members"
          placeholder="Search by name, username or e-mail"
          className="admin-search"
          value={members.search}
          onChange={(event) => dispatch(membersActions.memberSearchChanged(event.target.value))}
        />
        <span className="admin-count" role="status">
          {members.status === 'succeeded' ? memberCountText(members.total, searching) : ''}
        </span>
        <Button
          type="primary"
          icon={<UserAddOutlined aria-hidden />}
          onClick={() => dispatch(membersActions.memberDialogOpened({ kind: 'create' }))}
        >
          Add member
        </Button>
      </div>
      {body}
      <MemberDialogs />
    </section>
  );
}
