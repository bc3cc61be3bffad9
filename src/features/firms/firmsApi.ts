/**
 * Calls of the operator's Firms section (firm provisioning; docs/architecture.md "Firm
 * provisioning"). Every call goes through the one HTTP client, so a failed call throws an
 * ApiError with the server's message.
 */
import type {
  AddFirmMemberRequest,
  CreateFirmRequest,
  FirmDto,
  FirmMemberDto,
  FirmRole,
  UpdateFirmRequest,
} from '@common/firms';
import type { Page } from '@common/api';
import { REST, get, post, request } from '@src/api/client';

const id = (value: string) => encodeURIComponent(value);

/** GET REST/private/firms: every firm, disabled ones included, by name. */
export async function fetchFirms(): Promise<FirmDto[]> {
  return (await get<Page<FirmDto>>(`${REST}/private/firms`)).items;
}

/** POST REST/private/firms: a new, empty firm. */
export function createFirm(body: CreateFirmRequest): Promise<FirmDto> {
  return post<FirmDto>(`${REST}/private/firms`, body);
}

/** PATCH REST/private/firms/{id}: a new name and/or description ('' removes it). */
export function updateFirm(firmId: string, body: UpdateFirmRequest): Promise<FirmDto> {
  return request<FirmDto>('PATCH', `${REST}/private/firms/${id(firmId)}`, { body });
}

/** POST REST/private/firms/{id}/disable or /enable. */
export function setFirmDisabled(firmId: string, disabled: boolean): Promise<FirmDto> {
  return post<FirmDto>(
    `${REST}/private/firms/${id(firmId)}/${disabled ? 'disable' : 'enable'}`,
    {},
  );
}

/** GET REST/private/firms/{id}/members: the firm's members and their roles. */
export async function fetchFirmMembers(firmId: string): Promise<FirmMemberDto[]> {
  return (await get<Page<FirmMemberDto>>(`${REST}/private/firms/${id(firmId)}/members`)).items;
}

/** POST REST/private/firms/{id}/members: gives an existing user a role in the firm. */
export function addFirmMember(firmId: string, body: AddFirmMemberRequest): Promise<FirmMemberDto> {
  return post<FirmMemberDto>(`${REST}/private/firms/${id(firmId)}/members`, body);
}

/** PATCH REST/private/firms/{id}/members/{userId}: changes a member's role. */
export function changeFirmRole(
  firmId: string,
  userId: string,
  role: FirmRole,
): Promise<FirmMemberDto> {
  return request<FirmMemberDto>(
    'PATCH',
    `${REST}/private/firms/${id(firmId)}/members/${id(userId)}`,
    { body: { role } },
  );
}

/** DELETE REST/private/firms/{id}/members/{userId}: removes a member from the firm. */
export function removeFirmMember(firmId: string, userId: string): Promise<unknown> {
  return request<unknown>('DELETE', `${REST}/private/firms/${id(firmId)}/members/${id(userId)}`);
}
