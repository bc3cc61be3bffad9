// Fixtures of the teams tests.
import type { TeamDto } from '@common/users';

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
