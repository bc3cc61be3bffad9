/**
 * File version routes (docs/architecture.md "File versions"): a file's versions, reading one,
 * restoring one as the newest, an administrator deleting an older one, and the names of an upload
 * that clash with files of its folder. Thin: schema → session → services/fileVersions.ts.
 */
import type { FastifyInstance } from 'fastify';
import { MAX_CONFLICT_NAMES, type UploadConflictsRequest } from '@common/versions';
import { ctxOf } from '../plugins/auth';
import { UNCOMPRESSED } from '../plugins/compression';
import type { Services } from '../services/context';
import {
  deleteFileVersion,
  listFileVersions,
  openFileVersion,
  restoreFileVersion,
  uploadConflicts,
} from '../services/fileVersions';
import { readRequestOf, sendFile } from './fileResponse';
import { idParams } from './schemas';

const tags = ['files'];

/** `:id` (the file) and `:number` (its version, from 1). */
const versionParams = {
  type: 'object',
  required: ['id', 'number'],
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 64 },
    number: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
  },
} as const;

type VersionParams = { Params: { id: string; number: number } };

/** Registers the file version routes (behind requireSession). */
export function fileVersionRoutes(app: FastifyInstance, services: Services): void {
  app.get<{ Params: { id: string } }>(
    '/api/rest/files/:id/versions',
    {
      schema: {
        tags,
        description:
          'Every version of a file, newest first: number, size, sha256, content type, who ' +
          'uploaded or restored it and when, the version a restore copied, and which is the ' +
          "newest (the file's bytes). Whoever may read the file, archived files included.",
        params: idParams,
      },
    },
    async (request) => listFileVersions(services, ctxOf(request), request.params.id),
  );

  for (const mode of ['download', 'preview'] as const) {
    app.get<VersionParams>(
      `/api/rest/files/:id/versions/:number/${mode}`,
      {
        ...UNCOMPRESSED,
        schema: {
          tags,
          description:
            mode === 'download'
              ? 'Downloads one version of a file (an attachment named "<name> (version n).<ext>"), ' +
                "recorded as the file's download naming the version. Takes an HTTP Range."
              : 'Previews one version of a file as /preview does (inline for what browsers show ' +
                "safely, else the version's PDF rendition once derived, else an attachment " +
                'recorded as a download), recorded naming the version. Takes an HTTP Range.',
          params: versionParams,
        },
      },
      async (request, reply) =>
        sendFile(
          reply,
          await openFileVersion(
            services,
            ctxOf(request),
            request.params.id,
            request.params.number,
            mode,
            readRequestOf(request),
          ),
        ),
    );
  }

  app.post<VersionParams>(
    '/api/rest/files/:id/versions/:number/restore',
    {
      schema: {
        tags,
        description:
          'Restores a version as the newest: its object is copied on the store side into a new ' +
          'version (history: file restore_version). Members and administrators; 409 ' +
          '`version_is_newest` for the newest version.',
        params: versionParams,
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await restoreFileVersion(
            services,
            ctxOf(request),
            request.params.id,
            request.params.number,
          ),
        ),
  );

  app.delete<VersionParams>(
    '/api/rest/files/:id/versions/:number',
    {
      schema: {
        tags,
        description:
          'Deletes an older version for good, its object included (history: file ' +
          'delete_version). Administrators only; 409 `version_is_newest` for the newest version.',
        params: versionParams,
      },
    },
    async (request, reply) => {
      await deleteFileVersion(services, ctxOf(request), request.params.id, request.params.number);
      return reply.code(204).send();
    },
  );

  app.post<{ Body: UploadConflictsRequest }>(
    '/api/rest/files/conflicts',
    {
      schema: {
        tags,
        description:
          'Which of the names about to be uploaded into a folder a live file there already has ' +
          "(case-insensitive), with that file's id: the client asks whether to upload each as a " +
          'new version (create-upload with `version_of`) or keep both.',
        body: {
          type: 'object',
          required: ['folder_id', 'names'],
          properties: {
            folder_id: { type: 'string', maxLength: 64 },
            names: {
              type: 'array',
              maxItems: MAX_CONFLICT_NAMES,
              items: { type: 'string', minLength: 1, maxLength: 1000 },
            },
          },
        },
      },
    },
    async (request) => uploadConflicts(services, ctxOf(request), request.body),
  );
}
