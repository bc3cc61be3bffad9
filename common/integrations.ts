/**
 * API shapes of integrations, partner integration keys and single sign-on (SPEC section 7 "Integrations", "Integration user keys", "Private users and auth"). Times are ISO
 * 8601 UTC text. Keys and tokens are secrets: a key appears in an answer only once, when it is
 * created or rotated; a token only in the generate_token answer.
 */

/** A firm database's integration switch (GET REST/private/integrations, enable, disable). */
export interface IntegrationDto {
  databaseId: string;
  databaseName: string;
  description: string | null;
  /** Partner apps may use this firm's keys and sign-in tokens only while enabled. */
  enabled: boolean;
  /** When the switch last changed; null when it never did. */
  updatedAt: string | null;
}

/** GET REST/private/integrations: the firms the session's user administers. */
export interface IntegrationsResponse {
  integrations: IntegrationDto[];
}

/** Body of POST REST/private/integrations/enable and /disable. */
export interface IntegrationSwitchRequest {
  databaseId: string;
}

/** An integration user key as listed: never the key itself, only its first characters. */
export interface IntegrationKeyDto {
  id: string;
  /** The user the key signs in (one of the firm's users). */
  userId: string;
  userName: string;
  username: string;
  partnerAppId: string;
  /** The key's first characters (e.g. `dsk_AbCd1234`), to tell keys apart. */
  prefix: string;
  createdAt: string;
  rotatedAt: string | null;
  lastUsedAt: string | null;
  lastUsedIp: string | null;
}

/** GET REST/private/integrations/userkey?partner_app_id: the firm's keys (of that partner). */
export interface IntegrationKeysResponse {
  keys: IntegrationKeyDto[];
}

/** Body of POST REST/private/integrations/userkey?partner_app_id (default: the session's user). */
export interface CreateIntegrationKeyRequest {
  userId?: string;
}

/**
 * A key just created or rotated: the only answer that carries the key. The server keeps only its
 * sha256, so it cannot be shown again.
 */
export interface CreatedIntegrationKeyDto extends IntegrationKeyDto {
  key: string;
}

/** GET REST/private/auth/generate_token (Authorization: Bearer <key>). */
export interface GenerateTokenResponse {
  /** Single-use sign-in token for the key's user; POST it to /api/auth/login. */
  token: string;
  expiresAt: string;
  /** Seconds the token stays valid. */
  expiresIn: number;
}

/** Body of POST /api/auth/login and POST REST/private/auth/login. */
export interface TokenLoginRequest {
  token: string;
}

/** Partner app ids: letters, digits, dot, dash and underscore, 1 to 100 characters. */
export const PARTNER_APP_ID_PATTERN = '^[A-Za-z0-9._-]{1,100}$';

/** Visible prefix of integration keys: `dsk_` then the key's first 8 random characters. */
export const INTEGRATION_KEY_PREFIX = 'dsk_';
/** Length of the visible part of a key (`dsk_` + 8 characters). */
export const INTEGRATION_KEY_VISIBLE_CHARS = 12;
