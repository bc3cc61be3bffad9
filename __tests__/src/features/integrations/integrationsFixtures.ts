// Fixtures of the integrations tests: a firm's integration switch and partner keys.
import type {
  CreatedIntegrationKeyDto,
  IntegrationDto,
  IntegrationKeyDto,
} from '@common/integrations';

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
