// Fixtures of the firms tests (firm provisioning): firms, a firm's member and an operator.
import type { FirmDto, FirmMemberDto } from '@common/firms';
import { makeUser } from '../../fixtures';

/** A firm as the operator's list shows it. */
export function makeFirm(overrides: Partial<FirmDto> = {}): FirmDto {
  return {
    id: 'f1',
    name: 'Harbour Wealth',
    description: 'Harbour office',
    disabled: false,
    disabledAt: null,
    createdAt: '2024-03-05T14:07:00.000Z',
    memberCount: 3,
    ...overrides,
  };
}

/** A firm with three members. */
export const HARBOUR = makeFirm();
/** A firm without a description, with one member. */
export const QUAY = makeFirm({
  id: 'f2',
  name: 'Quay Partners',
  description: null,
  memberCount: 1,
});
/** A disabled firm without members. */
export const OLD = makeFirm({
  id: 'f3',
  name: 'Old Mill',
  description: 'Mill office',
  disabled: true,
  disabledAt: '2024-04-01T00:00:00.000Z',
  memberCount: 0,
});

/** A member of a firm, as its members dialog lists them. */
export const RITA: FirmMemberDto = {
  userId: 'u7',
  username: 'rita',
  firstName: 'Rita',
  lastName: 'Levi',
  role: 'admin',
  disabled: false,
};

/** An operator (firm provisioning) who also administers the current firm, as makeUser. */
export const OPERATOR = makeUser({ operator: true });
