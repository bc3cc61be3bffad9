/**
 * Calls of the integrations page (SPEC section 7 "Integrations", "Integration user keys"). Every
 * call goes through the one HTTP client, so a failed call throws an ApiError with the server's
 * message.
 */
import type {
  CreateIntegrationKeyRequest,
  CreatedIntegrationKeyDto,
  IntegrationDto,
  IntegrationKeyDto,
  IntegrationKeysResponse,
  IntegrationsResponse,
} from '@common/integrations';
import { REST, get, post, request } from '@src/api/client';

const id = (value: string) => encodeURIComponent(value);

// Integrations and partner keys

/** GET REST/private/integrations: the integration switch of the firms the user administers. */
export async function fetchIntegrations(): Promise<IntegrationDto[]> {
  const answer = await get<IntegrationsResponse | IntegrationDto[]>(`${REST}/private/integrations`);
  return Array.isArray(answer) ? answer : answer.integrations;
}

/** POST REST/private/integrations/enable or /disable with databaseId. */
export function switchIntegration(databaseId: string, enabled: boolean): Promise<IntegrationDto> {
  return post<IntegrationDto>(`${REST}/private/integrations/${enabled ? 'enable' : 'disable'}`, {
    databaseId,
  });
}

/** GET REST/private/integrations/userkey: the firm's partner keys (never the keys themselves). */
export async function fetchIntegrationKeys(): Promise<IntegrationKeyDto[]> {
  const answer = await get<IntegrationKeysResponse>(`${REST}/private/integrations/userkey`);
  return answer.keys;
}

/** POST REST/private/integrations/userkey?partner_app_id: a new key, shown this once. */
export function createIntegrationKey(
  partnerAppId: string,
  userId: string,
): Promise<CreatedIntegrationKeyDto> {
  const body: CreateIntegrationKeyRequest = { userId };
  return post<CreatedIntegrationKeyDto>(`${REST}/private/integrations/userkey`, body, {
    query: { partner_app_id: partnerAppId },
  });
}

/** POST REST/private/integrations/users/{id}?partner_app_id: rotates a user's key. */
export function rotateIntegrationKey(
  userId: string,
  partnerAppId: string,
): Promise<CreatedIntegrationKeyDto> {
  return post<CreatedIntegrationKeyDto>(
    `${REST}/private/integrations/users/${id(userId)}`,
    {},
    {
      query: { partner_app_id: partnerAppId },
    },
  );
}

/** DELETE REST/private/integrations/users/{id}?partner_app_id: deletes a user's key. */
export function deleteIntegrationKey(userId: string, partnerAppId: string): Promise<unknown> {
  return request<unknown>('DELETE', `${REST}/private/integrations/users/${id(userId)}`, {
    query: { partner_app_id: partnerAppId },
  });
}
