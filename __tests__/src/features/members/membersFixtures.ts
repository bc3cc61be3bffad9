// Fixtures of the members tests: members of the firm as the server answers them, and a page of them.
import type { Page } from '@common/api';
import type { DatabaseUserDto } from '@common/users';

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
