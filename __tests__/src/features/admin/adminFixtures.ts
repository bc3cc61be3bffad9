// Fixtures of the admin area tests: members, teams, permissions, integrations and keys.
import type {
  CreatedIntegrationKeyDto,
  IntegrationDto,
  IntegrationKeyDto,
} from '@common/integrations';
import type { Page } from '@common/api';
import type { FolderPermissionDto, PermissionableDto } from '@common/folderPermissions';
import type { DatabaseUserDto, TeamDto } from '@common/users';

/** A member of the firm. */
export function makeMember(overrides: Partial<DatabaseUserDto> = {}): DatabaseUserDto {
  const id = overrides.id ?? 'u2';
  return {
    id,
    userId: id,
    firstName: 'Grace',
    lastName: 'Hopper',
    username: 'grace',
    email: 'grace@example.com',
    role: 'member',
    sso: false,
    disabled: false,
    disabled_at: null,
    locked: false,
    locked_at: null,
    locked_until: null,
    failed_logins: 0,
    created_at: '2024-03-05T14:07:00.000Z',
    updated_at: '2024-03-05T14:07:00.000Z',
    ...overrides,
  };
}

/** The current admin (u1, Ada Lovelace, as makeUser) as a member row. */
export const ADA = makeMember({
  id: 'u1',
  firstName: 'Ada',
  lastName: 'Lovelace',
  username: 'ada',
  email: 'ada@example.com',
  role: 'admin',
});
/** A member. */
export const GRACE = makeMember();
/** A locked read-only member. */
export const ALAN = makeMember({
  id: 'u3',
  firstName: 'Alan',
  lastName: 'Turing',
  username: 'alan',
  email: null,
  role: 'read_only',
  locked: true,
  locked_at: '2024-03-06T09:00:00.000Z',
  locked_until: null,
  failed_logins: 5,
});

/** A page of members. */
export function membersPage(items: DatabaseUserDto[], total = items.length, page = 1) {
  const answer: Page<DatabaseUserDto> = { items, page, page_size: 100, total };
  return answer;
}

/** A team. */
export function makeTeam(overrides: Partial<TeamDto> = {}): TeamDto {
  return {
    id: 't1',
    name: 'Advisors',
    member_ids: ['u2'],
    created_at: '2024-03-05T14:07:00.000Z',
    updated_at: '2024-03-05T14:07:00.000Z',
    ...overrides,
  };
}

/** The firm's permissionables: three users and a team. */
export const PERMISSIONABLES: PermissionableDto[] = [
  { permissionable_id: 'u1', permissionable_type: 'user', name: 'Ada Lovelace' },
  { permissionable_id: 'u2', permissionable_type: 'user', name: 'Grace Hopper' },
  { permissionable_id: 'u3', permissionable_type: 'user', name: 'Alan Turing' },
  { permissionable_id: 't1', permissionable_type: 'team', name: 'Advisors' },
];

/** A folder permission. */
export function makePermission(overrides: Partial<FolderPermissionDto> = {}): FolderPermissionDto {
  return {
    id: 'p1',
    folder_id: 'f1',
    permissionable_id: 'u2',
    permissionable_type: 'user',
    name: 'Grace Hopper',
    created_at: '2024-03-05T14:07:00.000Z',
    ...overrides,
  };
}

/** The integration switch of db1. */
export function makeIntegration(overrides: Partial<IntegrationDto> = {}): IntegrationDto {
  return {
    databaseId: 'db1',
    databaseName: 'north',
    description: 'North Advisors',
    enabled: false,
    updatedAt: null,
    ...overrides,
  };
}

/** A listed key. */
export function makeKey(overrides: Partial<IntegrationKeyDto> = {}): IntegrationKeyDto {
  return {
    id: 'k1',
    userId: 'u2',
    userName: 'Grace Hopper',
    username: 'grace',
    partnerAppId: 'crm',
    prefix: 'dsk_AbCd1234',
    createdAt: '2024-03-05T14:07:00.000Z',
    rotatedAt: null,
    lastUsedAt: null,
    lastUsedIp: null,
    ...overrides,
  };
}

/** A key as created or rotated: with the secret. */
export function makeCreatedKey(overrides: Partial<CreatedIntegrationKeyDto> = {}) {
  const created: CreatedIntegrationKeyDto = {
    ...makeKey(),
    key: 'dsk_AbCd1234secretsecretsecretsecretsecret',
    ...overrides,
  };
  return created;
}
