/**
 * CRM contacts, the partner upsert and CSV import, folder contacts (SPEC section 7
 * "Contacts"). Thin: schema → service (services/contacts.ts and contactImport.ts decide access
 * and rules).
 *
 * Open (no session; authenticated with a partner's integration key, `Authorization: Bearer`):
 * PUT /api/integrations/contacts. Behind a session: the contact search (members and
 * administrators), the CSV import and the phone numbers' edit (administrators), and linking,
 * listing and unlinking folder contacts.
 */
import type { FastifyInstance } from 'fastify';
import {
  CONTACT_BATCH_MAX,
  CONTACT_CRM_ID_MAX,
  CONTACT_NAME_MAX,
  CONTACT_PHONES_MAX,
  CONTACT_PHONE_TEXT_SCHEMA_MAX,
  CONTACT_SEARCH_MAX,
  type ContactImportRequest,
  type ContactSearchRequest,
  type LinkFolderContactRequest,
  type PartnerContactsRequest,
  type UpdateContactPhonesRequest,
} from '@common/contacts';
import { PHONE_INPUT_MAX_LENGTH } from '@common/phone';
import { clientInfo, ctxOf } from '../plugins/auth';
import { importContactsCsv, upsertPartnerContacts } from '../services/contactImport';
import {
  linkFolderContact,
  listFolderContacts,
  searchContacts,
  unlinkFolderContact,
  updateContactPhones,
} from '../services/contacts';
import type { Services } from '../services/context';
import { bearerKey } from '../services/sso';
import { idParams } from './schemas';

const tags = ['contacts'];
/** Largest CSV import body, in bytes. */
const IMPORT_BODY_LIMIT = 10 * 1_048_576;
/** Largest partner batch body, in bytes. */
const PARTNER_BODY_LIMIT = 5 * 1_048_576;
const id = { type: 'string', minLength: 1, maxLength: 64 } as const;
const phone = {
  anyOf: [
    { type: 'string', maxLength: PHONE_INPUT_MAX_LENGTH },
    {
      type: 'object',
      required: ['country_code', 'number'],
      properties: {
        country_code: { type: 'integer' },
        number: { type: 'string', maxLength: PHONE_INPUT_MAX_LENGTH },
      },
    },
  ],
} as const;

/** Routes reachable without a session (registered outside requireSession). */
export async function publicContactRoutes(app: FastifyInstance, services: Services): Promise<void> {
  app.put<{ Body: PartnerContactsRequest }>(
    '/api/integrations/contacts',
    {
      bodyLimit: PARTNER_BODY_LIMIT,
      schema: {
        tags,
        security: [],
        description:
          "Called by a partner app with one of the firm's user keys (Authorization: Bearer " +
          '<key>): creates or updates up to 1000 contacts by crm_id. Answers the created and ' +
          'updated counts and the refused contacts by index (from 0) with the reason. A field ' +
          'left out keeps the stored value; phones are texts ("+1 213 373 4253") or ' +
          '{country_code, number}.',
        body: {
          type: 'object',
          required: ['contacts'],
          properties: {
            contacts: {
              type: 'array',
              maxItems: CONTACT_BATCH_MAX,
              items: {
                type: 'object',
                required: ['crm_id', 'name'],
                properties: {
                  crm_id: { type: 'string', minLength: 1, maxLength: CONTACT_CRM_ID_MAX },
                  name: { type: 'string', maxLength: CONTACT_NAME_MAX * 4 },
                  email: { anyOf: [{ type: 'string', maxLength: 1000 }, { type: 'null' }] },
                  phones: { type: 'array', maxItems: 50, items: phone },
                },
              },
            },
          },
        },
      },
    },
    async (request) =>
      upsertPartnerContacts(
        services,
        bearerKey(request.headers.authorization),
        clientInfo(request),
        request.body.contacts,
      ),
  );
  return Promise.resolve();
}

/** Routes behind requireSession. */
export function contactRoutes(app: FastifyInstance, services: Services): void {
  app.post<{ Body: ContactSearchRequest }>(
    '/api/rest/private/contacts/search',
    {
      schema: {
        tags,
        description:
          "The firm's contacts whose name contains `name` (case-insensitive): exact matches " +
          'first, then those starting with it, then the others; at most 50. Members and ' +
          'administrators.',
        body: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string', maxLength: CONTACT_SEARCH_MAX } },
        },
      },
    },
    async (request) => searchContacts(services, ctxOf(request), request.body.name),
  );

  app.patch<{ Params: { id: string }; Body: UpdateContactPhonesRequest }>(
    '/api/rest/private/contacts/:id',
    {
      schema: {
        tags,
        description:
          'Administrators: replaces the contact\'s phone numbers, each as typed ("+1 213 373 ' +
          '4253") or stored ({country_code, number}); blank ones are left out, duplicates kept ' +
          'once. A refused phone answers 400 "Phone {n}: {message}" with code phone_not_a_number, ' +
          'phone_too_short, phone_too_long or phone_invalid_country. Answers the contact.',
        params: idParams,
        body: {
          type: 'object',
          required: ['phones'],
          additionalProperties: false,
          properties: {
            phones: {
              type: 'array',
              // One more than allowed, so that the service answers the spec's message.
              maxItems: CONTACT_PHONES_MAX + 1,
              items: {
                anyOf: [
                  { type: 'string', maxLength: CONTACT_PHONE_TEXT_SCHEMA_MAX },
                  phone.anyOf[1],
                ],
              },
            },
          },
        },
      },
    },
    (request) => updateContactPhones(services, ctxOf(request), request.params.id, request.body),
  );

  // Its own scope: the text/csv body parser applies to the import only.
  void app.register(async (scope) => {
    scope.addContentTypeParser(
      'text/csv',
      { parseAs: 'string', bodyLimit: IMPORT_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );
    scope.post<{ Body: ContactImportRequest | string }>(
      '/api/rest/private/contacts/import',
      {
        bodyLimit: IMPORT_BODY_LIMIT,
        schema: {
          tags,
          description:
            'Administrators: imports contacts from CSV (a text/csv or text/plain body, or JSON ' +
            '{csv}). The header names the columns name, email, phone, crm_id (any order; ' +
            'several phones separated by ";"). Answers {created, updated, rejected: [{line, ' +
            'reason}]}; the header is line 1.',
          body: {
            anyOf: [
              { type: 'string' },
              { type: 'object', required: ['csv'], properties: { csv: { type: 'string' } } },
            ],
          },
        },
      },
      async (request) =>
        importContactsCsv(
          services,
          ctxOf(request),
          typeof request.body === 'string' ? request.body : request.body.csv,
        ),
    );
  });

  app.post<{ Body: LinkFolderContactRequest }>(
    '/api/rest/folder_contacts',
    {
      schema: {
        tags,
        description: 'Links a contact to a folder (history: folder_contact create, "linked").',
        body: {
          type: 'object',
          required: ['folder_id', 'contact_id'],
          properties: { folder_id: id, contact_id: id },
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await linkFolderContact(services, ctxOf(request), request.body)),
  );

  app.get<{ Params: { id: string } }>(
    '/api/rest/folders/:id/folder_contacts',
    { schema: { tags, description: "A folder's linked contacts, by name.", params: idParams } },
    async (request) => listFolderContacts(services, ctxOf(request), request.params.id),
  );

  app.delete<{ Params: { id: string }; Querystring: { contact_id?: string } }>(
    '/api/rest/folder_contacts/:id',
    {
      schema: {
        tags,
        description:
          'Unlinks a contact from a folder (history: folder_contact delete, "unlinked"). `id` ' +
          "is the link's id, or with `contact_id` the folder's id.",
        params: idParams,
        querystring: { type: 'object', properties: { contact_id: id } },
      },
    },
    async (request, reply) => {
      await unlinkFolderContact(
        services,
        ctxOf(request),
        request.params.id,
        request.query.contact_id,
      );
      return reply.code(204).send();
    },
  );
}
