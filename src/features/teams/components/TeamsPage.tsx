/**
 * /admin/teams: the firm's teams (a folder permission can name a team), with
 * create, rename, members (add, remove) and delete.
 */
import { DeleteOutlined, EditOutlined, PlusOutlined, TeamOutlined } from '@ant-design/icons';
import { Alert, Button, Input, List, Modal, Space, Spin } from 'antd';
import { useEffect, useId, useState } from 'react';
import { plural } from '@common/text';
import type { TeamDto } from '@common/users';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectCurrentDatabaseId } from '@src/features/session/sessionSelectors';
import { selectUserOptions } from '@src/features/folderPermissions/folderPermissionsSelectors';
import { folderPermissionsActions } from '@src/features/folderPermissions/folderPermissionsSlice';
import { MemberSelect, type UserOption } from '@src/features/members/components/MemberDialogs';
import { selectSelectedTeam, selectTeamDialog, selectTeams } from '../teamsSelectors';
import { teamsActions } from '../teamsSlice';

/** "3 members" for a team. */
function teamMembersText(team: TeamDto): string {
  return `${team.member_ids.length} ${plural(team.member_ids.length, 'member')}`;
}

/** The request's error inside a dialog. */
function DialogError({ message }: { message: string | null }) {
  return message ? <Alert type="error" role="alert" showIcon title={message} /> : null;
}

/** Create (name and first members) or rename. */
function TeamNameDialog({ team }: { team: TeamDto | null }) {
  const dispatch = useAppDispatch();
  const dialog = useAppSelector(selectTeamDialog);
  const users = useAppSelector(selectUserOptions);
  const [name, setName] = useState(team?.name ?? '');
  const [memberIds, setMemberIds] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  const submit = () => {
    const trimmed = name.trim();
    if (trimmed === '') {
      setProblem('A team needs a name.');
      return;
    }
    if (team) dispatch(teamsActions.teamRenameRequested({ teamId: team.id, name: trimmed }));
    else dispatch(teamsActions.teamCreateRequested({ name: trimmed, memberIds }));
  };
  return (
    <Modal
      open
      title={team ? 'Rename team' : 'Create team'}
      okText={team ? 'Rename' : 'Create'}
      cancelText="Cancel"
      confirmLoading={dialog.status === 'loading'}
      onOk={submit}
      onCancel={() => dispatch(teamsActions.teamDialogClosed())}
      destroyOnHidden
    >
      <div className="admin-dialog">
        <div className="admin-field">
          <label htmlFor={id}>Team name</label>
          <Input
            id={id}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setProblem(null);
            }}
            onPressEnter={submit}
          />
        </div>
        {team ? null : (
          <div className="admin-field">
            <span>Members</span>
            <MemberSelect
              label="Team members"
              mode="multiple"
              users={users}
              value={memberIds}
              onChange={(value) => setMemberIds(value as string[])}
            />
          </div>
        )}
        <DialogError message={problem ?? (dialog.status === 'failed' ? dialog.error : null)} />
      </div>
    </Modal>
  );
}

/** The members of a team: remove one, add others. */
function TeamMembersDialog({ team }: { team: TeamDto }) {
  const dispatch = useAppDispatch();
  const dialog = useAppSelector(selectTeamDialog);
  const users = useAppSelector(selectUserOptions);
  const [adding, setAdding] = useState<string[]>([]);
  const byId = new Map(users.map((user) => [user.id, user]));
  const inTeam = new Set(team.member_ids);
  const candidates = users.filter((user) => !inTeam.has(user.id));
  const saving = dialog.status === 'loading';
  return (
    <Modal
      open
      title={`Members of ${team.name}`}
      footer={<Button onClick={() => dispatch(teamsActions.teamDialogClosed())}>Close</Button>}
      onCancel={() => dispatch(teamsActions.teamDialogClosed())}
      destroyOnHidden
    >
      <div className="admin-dialog">
        <p role="status">{teamMembersText(team)}</p>
        <div role="group" aria-label="Team members">
          <List
            size="small"
            dataSource={team.member_ids}
            locale={{ emptyText: 'No members yet.' }}
            renderItem={(userId) => {
              const name = byId.get(userId)?.name ?? userId;
              return (
                <List.Item
                  actions={[
                    <Button
                      key="remove"
                      size="small"
                      disabled={saving}
                      aria-label={`Remove ${name} from ${team.name}`}
                      onClick={() =>
                        dispatch(
                          teamsActions.teamMemberRemoveRequested({ teamId: team.id, userId }),
                        )
                      }
                    >
                      Remove
                    </Button>,
                  ]}
                >
                  {name}
                </List.Item>
              );
            }}
          />
        </div>
        <Space.Compact block>
          <MemberSelect
            label="Members to add"
            mode="multiple"
            users={candidates}
            value={adding}
            onChange={(value) => setAdding(value as string[])}
          />
          <Button
            type="primary"
            disabled={adding.length === 0 || saving}
            onClick={() => {
              dispatch(teamsActions.teamMembersAddRequested({ teamId: team.id, userIds: adding }));
              setAdding([]);
            }}
          >
            Add
          </Button>
        </Space.Compact>
        <DialogError message={dialog.status === 'failed' ? dialog.error : null} />
      </div>
    </Modal>
  );
}

/** Asks before deleting a team. */
function TeamDeleteDialog({ team }: { team: TeamDto }) {
  const dispatch = useAppDispatch();
  const dialog = useAppSelector(selectTeamDialog);
  return (
    <Modal
      open
      title="Delete team"
      okText="Delete"
      okButtonProps={{ danger: true }}
      cancelText="Cancel"
      confirmLoading={dialog.status === 'loading'}
      onOk={() => dispatch(teamsActions.teamDeleteRequested({ teamId: team.id }))}
      onCancel={() => dispatch(teamsActions.teamDialogClosed())}
      destroyOnHidden
    >
      <div className="admin-dialog">
        <p>
          Delete the team <strong>{team.name}</strong>? Folder permissions that name it are removed
          too; its members keep their own permissions.
        </p>
        <DialogError message={dialog.status === 'failed' ? dialog.error : null} />
      </div>
    </Modal>
  );
}

/** The open team dialog. */
function TeamDialogs() {
  const dialog = useAppSelector(selectTeamDialog);
  const team = useAppSelector(selectSelectedTeam);
  if (dialog.kind === 'create') return <TeamNameDialog team={null} />;
  if (!team) return null;
  if (dialog.kind === 'rename') return <TeamNameDialog key={team.id} team={team} />;
  if (dialog.kind === 'members') return <TeamMembersDialog key={team.id} team={team} />;
  if (dialog.kind === 'delete') return <TeamDeleteDialog key={team.id} team={team} />;
  return null;
}

/** The member names of a team, for its row. */
function memberNames(team: TeamDto, users: readonly UserOption[]): string {
  const byId = new Map(users.map((user) => [user.id, user.name]));
  return team.member_ids
    .map((userId) => byId.get(userId))
    .filter((name): name is string => name !== undefined)
    .join(', ');
}

/** The teams page. */
export function TeamsPage() {
  const dispatch = useAppDispatch();
  const teams = useAppSelector(selectTeams);
  const users = useAppSelector(selectUserOptions);
  const databaseId = useAppSelector(selectCurrentDatabaseId);

  useEffect(() => {
    dispatch(teamsActions.teamsRequested());
    dispatch(folderPermissionsActions.permissionablesRequested());
  }, [dispatch, databaseId]);

  let body;
  if (teams.status === 'failed') {
    body = (
      <Alert
        type="error"
        role="alert"
        showIcon
        title={teams.error}
        action={
          <Button size="small" onClick={() => dispatch(teamsActions.teamsRequested())}>
            Try again
          </Button>
        }
      />
    );
  } else if (teams.status !== 'succeeded' && teams.items.length === 0) {
    body = (
      <div className="list-loading" role="status">
        <Spin description="Loading teams…">
          <div className="list-loading-area" />
        </Spin>
      </div>
    );
  } else {
    body = (
      <div role="group" aria-label="Team list">
        <List
          dataSource={teams.items}
          locale={{
            emptyText: 'No teams yet. A team lets a folder permission name several people.',
          }}
          renderItem={(team) => (
            <List.Item
              aria-label={team.name}
              actions={[
                <Button
                  key="members"
                  size="small"
                  icon={<TeamOutlined aria-hidden />}
                  aria-label={`Members of ${team.name}`}
                  onClick={() =>
                    dispatch(teamsActions.teamDialogOpened({ kind: 'members', teamId: team.id }))
                  }
                >
                  Members
                </Button>,
                <Button
                  key="rename"
                  size="small"
                  icon={<EditOutlined aria-hidden />}
                  aria-label={`Rename ${team.name}`}
                  onClick={() =>
                    dispatch(teamsActions.teamDialogOpened({ kind: 'rename', teamId: team.id }))
                  }
                >
                  Rename
                </Button>,
                <Button
                  key="delete"
                  size="small"
                  danger
                  icon={<DeleteOutlined aria-hidden />}
                  aria-label={`Delete ${team.name}`}
                  onClick={() =>
                    dispatch(teamsActions.teamDialogOpened({ kind: 'delete', teamId: team.id }))
                  }
                >
                  Delete
                </Button>,
              ]}
            >
              <List.Item.Meta
                title={team.name}
                description={`${teamMembersText(team)}${
                  team.member_ids.length > 0 ? ` · ${memberNames(team, users)}` : ''
                }`}
              />
            </List.Item>
          )}
        />
      </div>
    );
  }

  return (
    <section className="admin-section" aria-label="Teams">
      <div className="admin-toolbar">
        <span className="admin-count" role="status">
          {teams.status === 'succeeded'
            ? `${teams.items.length} ${plural(teams.items.length, 'team')}`
            : ''}
        </span>
        <Button
          type="primary"
          icon={<PlusOutlined aria-hidden />}
          onClick={() => dispatch(teamsActions.teamDialogOpened({ kind: 'create' }))}
        >
          Create team
        </Button>
      </div>
      {body}
      <TeamDialogs />
    </section>
  );
}
