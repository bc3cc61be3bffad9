/**
 * Shared steps of the integration and single-sign-on tests: enable a firm's integrations, create a
 * user key, ask a token with it, sign in with the token.
 */
import type { LightMyRequestResponse } from 'fastify';
import type { CreatedIntegrationKeyDto, GenerateTokenResponse } from '@common/integrations';
import type { CurrentUserDto } from '@common/session';
import type { TestServer } from './helpers';

/** The session's current user (GET /api/auth/current-user). */
export async function me(server: TestServer, cookie: string): Promise<CurrentUserDto> {
  const response = await server.app.inject({
    method: 'GET',
    url: '/api/auth/current-user',
    headers: { cookie },
  });
  if (response.statusCode !== 200) throw new Error(`current-user: ${response.statusCode}`);
  return response.json<CurrentUserDto>();
}

/** POST REST/private/integrations/enable or /disable. */
export function switchIntegrations(
  server: TestServer,
  cookie: string,
  databaseId: string,
  enabled: boolean,
): Promise<LightMyRequestResponse> {
  return server.app.inject({
    method: 'POST',
    url: `/api/rest/private/integrations/${enabled ? 'enable' : 'disable'}`,
    headers: { cookie },
    payload: { databaseId },
  });
}

/** POST REST/private/integrations/userkey?partner_app_id (raw answer). */
export function postKey(
  server: TestServer,
  cookie: string,
  partnerAppId: string,
  userId?: string,
): Promise<LightMyRequestResponse> {
  return server.app.inject({
    method: 'POST',
    url: `/api/rest/private/integrations/userkey?partner_app_id=${encodeURIComponent(partnerAppId)}`,
    headers: { cookie },
    payload: userId === undefined ? {} : { userId },
  });
}

/** Creates a key and answers it. @throws Error unless 201 */
export async function createKey(
  server: TestServer,
  cookie: string,
  partnerAppId: string,
  userId?: string,
): Promise<CreatedIntegrationKeyDto> {
  const response = await postKey(server, cookie, partnerAppId, userId);
  if (response.statusCode !== 201) {
    throw new Error(`create key: ${response.statusCode} ${response.body}`);
  }
  return response.json<CreatedIntegrationKeyDto>();
}

/** GET REST/private/auth/generate_token with a Bearer key (or a raw Authorization header). */
export function generateToken(
  server: TestServer,
  key: string | null,
  options: { ip?: string; authorization?: string } = {},
): Promise<LightMyRequestResponse> {
  const authorization = options.authorization ?? (key === null ? undefined : `Bearer ${key}`);
  return server.app.inject({
    method: 'GET',
    url: '/api/rest/private/auth/generate_token',
    headers: authorization === undefined ? {} : { authorization },
    remoteAddress: options.ip,
  });
}

/** A token for the key's user. @throws Error unless 200 */
export async function tokenFor(server: TestServer, key: string): Promise<GenerateTokenResponse> {
  const response = await generateToken(server, key);
  if (response.statusCode !== 200) {
    throw new Error(`generate_token: ${response.statusCode} ${response.body}`);
  }
  return response.json<GenerateTokenResponse>();
}

/** POST /api/auth/login (or the REST path) with a token. */
export function loginWithToken(
  server: TestServer,
  token: string,
  url: '/api/auth/login' | '/api/rest/private/auth/login' = '/api/auth/login',
  options: { ip?: string } = {},
): Promise<LightMyRequestResponse> {
  return server.app.inject({
    method: 'POST',
    url,
    payload: { token },
    remoteAddress: options.ip,
  });
}
