// Fixtures of the folder permissions tests: the firm's permissionables (which the teams and
// integrations tests use too) and a folder permission.
import type { FolderPermissionDto, PermissionableDto } from '@common/folderPermissions';

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
