/**
 * Route fuzzing, on SQLite and PostgreSQL: every operation of the app's OpenAPI document (so a new
 * route is fuzzed by itself) gets generated malformed input from fast-check — wrong types, huge and
 * negative numbers, empty, very long and unicode strings, NUL, arrays where objects are expected,
 * missing required and extra fields, malformed path parameters and encodings — signed in as an
 * administrator, and a few runs with no session. No answer may be a 5xx or carry a stack trace or
 * an internal error text.
 *
 * Reproducible: the seed is fixed (FUZZ_SEED overrides it) and each route's seed derives from it
 * and the route's name, so adding a route leaves the others' inputs alone; a failure prints the
 * route, its seed and the request. Bounded: ADMIN_RUNS (FUZZ_RUNS overrides it, for a longer hunt)
 * and ANON_RUNS per route, no shrinking; both databases together take well under two minutes.
 *
 * Destructive routes are handled deliberately: the routes that end or change the session (sign-out,
 * switch-database) run on a fresh session each time; the administrator's own id is never offered
 * as an id (no self password change, role change or disabling), only a throwaway user's; and
 * operations that archive, destroy or delete run after all the others, so the fixture stays
 * meaningful for the reads.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { MAX_PAGE_NUMBER } from '@common/constants';
import { MESSAGES } from '@common/messages';
import { describeEachDatabase, signIn, startTestServer, type TestServer } from './helpers';
import { apiOperations, type ApiOperation, type JsonSchema } from './openApiRoutes';
import { seededAdminRowMakers } from './routeTable';

/** The base seed; a failure message names the route's own seed. */
const BASE_SEED = Number(process.env.FUZZ_SEED ?? 20261126);
/** Runs per route signed in as the administrator, and with no session. */
const ADMIN_RUNS = Number(process.env.FUZZ_RUNS ?? 16);
const ANON_RUNS = 2;

/** Routes that end or change the session they run on: each run signs in anew. */
const FRESH_SESSION_ROUTES = new Set(['POST /api/auth/logout', 'POST /api/auth/switch-database']);

/** Operations run last (they archive, destroy or delete fixture rows). */
const isDestructive = (operation: ApiOperation) =>
  operation.method === 'DELETE' || /archive|destroy|disable|delete/.test(operation.path);

/** Text that must never reach a client: stack frames, error class names, database internals. */
const LEAKS: RegExp[] = [
  /\n\s+at\s/,
  /\bat\s+\S+\s+\([^)]*:\d+:\d+\)/,
  /\b[A-Z][A-Za-z]*Error:/,
  /internal_error/,
  /SQLITE_|sqlite3?\b|postgres|kysely|node_modules|\.ts:\d+/i,
  /syntax error|violates|constraint failed|invalid input syntax|relation "/i,
];

/** A stable 32-bit hash of a route name (FNV-1a). */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h | 0;
}

const NASTY_TEXTS = [
  ' ',
  '   ',
  'a\u0000b',
  '\u0000',
  '\uD800',
  '😀😀😀',
  'Ω≈ç√∫˜µ≤',
  'ﷺ‮‭',
  '../../etc/passwd',
  '..',
  '/',
  '\\',
  '%00',
  '%',
  "' OR 1=1 --",
  '"; drop table users; --',
  '<script>alert(1)</script>',
  'null',
  'undefined',
  'true',
  '-1',
  '0',
  '1e309',
  'Infinity',
  '-Infinity',
  'NaN',
  '9999999999999999999999',
  '2020-13-45T99:99:99Z',
  '{}',
  '[]',
  '__proto__',
];

/** Strings a client should not send: empty, unicode, NUL, long, look-alikes of other types. */
const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.constant(''),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.constantFrom(...NASTY_TEXTS),
  fc.integer({ min: 256, max: 70_000 }).map((n) => 'x'.repeat(n)),
);

/** Numbers out of any sensible range. */
const nastyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.constantFrom(-1, 0, 2 ** 31, 2 ** 53, -(2 ** 53), 1e308, -1e308, 0.5, -0.0001, 2 ** 64),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** A value of the wrong type (any JSON value but what the schema says). */
function wrongValue(depth: number): fc.Arbitrary<unknown> {
  const leaves: fc.Arbitrary<unknown>[] = [
    nastyString,
    nastyNumber,
    fc.boolean(),
    fc.constant(null),
  ];
  if (depth > 2) return fc.oneof(...leaves);
  return fc.oneof(
    ...leaves,
    fc.array(wrongValue(depth + 1), { maxLength: 3 }),
    fc.dictionary(nastyString, wrongValue(depth + 1), { maxKeys: 3 }),
  );
}

/** Ids and tokens of the fixture that a field or parameter may be given (never the admin's). */
interface Pool {
  ids: string[];
}

const typesOf = (schema: JsonSchema): string[] =>
  Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];

/**
 * Values for a schema. Loose (the default): mostly shaped like it, sometimes of the wrong type or
 * out of its bounds, with missing and extra fields. Strict: valid for the schema (required fields,
 * lengths, bounds, patterns), so requests get past validation into the services and queries.
 * @param name the property's name (an `email` field gets e-mail addresses)
 */
function valueFor(
  schema: JsonSchema | undefined,
  pool: Pool,
  strict: boolean,
  depth = 0,
  name = '',
): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return strict ? fc.constant('x') : wrongValue(3);
  if (strict) return shapedValue(schema, pool, true, depth, name);
  return fc.oneof(
    { arbitrary: shapedValue(schema, pool, false, depth, name), weight: 4 },
    { arbitrary: wrongValue(depth + 1), weight: 1 },
  );
}

function shapedValue(
  schema: JsonSchema,
  pool: Pool,
  strict: boolean,
  depth: number,
  name: string,
): fc.Arbitrary<unknown> {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.length > 0) {
    return fc.oneof(...alternatives.map((a) => shapedValue(a, pool, strict, depth, name)));
  }
  if (schema.enum && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const types = typesOf(schema);
  if (types.length > 1) {
    return fc.oneof(
      ...types.map((type) => shapedValue({ ...schema, type }, pool, strict, depth, name)),
    );
  }
  switch (types[0]) {
    case 'object': {
      const entries = Object.entries(schema.properties ?? {});
      const required = new Set(schema.required ?? []);
      const fields = entries.map(([key, property]) => {
        const value = valueFor(property, pool, strict, depth + 1, key);
        const always = strict && required.has(key);
        return (always ? value : fc.option(value, { freq: required.has(key) ? 8 : 2 })).map(
          (v) => [key, v] as const,
        );
      });
      const extra = strict
        ? fc.constant(null)
        : fc.option(fc.dictionary(nastyString, wrongValue(3), { maxKeys: 2 }), { freq: 4 });
      return fc.tuple(fc.tuple(...fields), extra).map(([pairs, more]) => {
        const object: Record<string, unknown> = { ...(more ?? {}) };
        for (const [key, value] of pairs) if (value !== null) object[key] = value;
        return object;
      });
    }
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 4, 4));
      return fc.array(valueFor(schema.items, pool, strict, depth + 1, name), {
        minLength: strict ? minLength : 0,
        maxLength,
      });
    }
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? -5;
      const inRange = fc.integer({ min, max: schema.maximum ?? Math.max(min, 0) + 1000 });
      return strict ? inRange : fc.oneof(inRange, nastyNumber);
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'string':
      if (schema.format === 'date-time') {
        return fc
          .date({ min: new Date(0), max: new Date(Date.UTC(2200, 0, 1)), noInvalidDate: true })
          .map((d) => d.toISOString());
      }
      return stringFor(schema, pool, strict, name);
    default:
      return wrongValue(depth + 1);
  }
}

/** Strings for a string schema: fixture ids, e-mail addresses, random text (loose: nasty text). */
function stringFor(
  schema: JsonSchema,
  pool: Pool,
  strict: boolean,
  name: string,
): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 40, 40));
  if (schema.pattern) {
    const matching = fc.stringMatching(new RegExp(schema.pattern));
    return strict ? matching : fc.oneof(matching, nastyString);
  }
  const fits = (text: string) =>
    text.length >= minLength && text.length <= (schema.maxLength ?? Infinity);
  const ids = pool.ids.filter(fits);
  const choices: fc.WeightedArbitrary<string>[] = [
    { arbitrary: fc.string({ minLength, maxLength }), weight: 2 },
  ];
  if (ids.length > 0) choices.push({ arbitrary: fc.constantFrom(...ids), weight: 3 });
  if (/email/i.test(name)) {
    choices.push({ arbitrary: fc.emailAddress().filter(fits), weight: 3 });
  }
  if (!strict) choices.push({ arbitrary: nastyString, weight: 2 });
  return fc.oneof(...choices);
}

/** A generated request of one operation. */
interface FuzzRequest {
  /** Path parameter values; raw ones go into the URL unencoded (malformed encodings). */
  path: Record<string, { value: string; raw: boolean }>;
  query: [string, string][];
  body:
    | { kind: 'none' }
    | { kind: 'json'; value: unknown }
    | { kind: 'raw'; contentType: string; text: string };
  /** A User-Agent header (it reaches the sessions and sign-in records), or null for none. */
  userAgent: string | null;
}

/** A query parameter's value(s) as sent in a URL. */
function queryValues(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => queryValues(v));
  if (value !== null && typeof value === 'object') return [JSON.stringify(value)];
  return [String(value)];
}

const RAW_PATH_VALUES = ['%', '%zz', '%E0%A4%A', '%2e%2e', '..', '%2F', '%C0%AF', '%FF%FE'];

/** A body that is not the JSON the route expects: broken JSON, another content type. */
const rawBody = fc.record({
  kind: fc.constant('raw' as const),
  contentType: fc.constantFrom(
    'application/json',
    'text/plain',
    'text/csv',
    'application/x-www-form-urlencoded',
    'application/octet-stream',
  ),
  text: fc.oneof(
    fc.constantFrom(
      '{"a":',
      '[[[[',
      '{"__proto__":{"x":1}}',
      '{"constructor":{"prototype":{}}}',
      'null',
    ),
    fc
      .constantFrom('[', '{')
      .chain((open) => fc.integer({ min: 1000, max: 20_000 }).map((n) => open.repeat(n))),
    nastyString,
  ),
});

/** User agents a header can carry (printable, sometimes very long). */
const userAgent = fc.oneof(
  fc
    .string({ unit: 'binary-ascii', maxLength: 40 })
    .map((text) => text.replace(/[^\x20-\x7e]/g, '')),
  fc.integer({ min: 513, max: 8000 }).map((n) => 'Mozilla/5.0 '.repeat(n).slice(0, n)),
);

/** The generator of requests of one operation. */
function requestFor(operation: ApiOperation, pool: Pool): fc.Arbitrary<FuzzRequest> {
  const path = fc.tuple(
    ...operation.pathParams.map((param) =>
      fc
        .oneof(
          {
            arbitrary: fc.constantFrom(...pool.ids).map((value) => ({ value, raw: false })),
            weight: 4,
          },
          {
            arbitrary: (typesOf(param.schema).includes('integer')
              ? fc.oneof(fc.integer({ min: -5, max: 20_000 }).map(String), nastyString)
              : nastyString
            ).map((value) => ({ value, raw: false })),
            weight: 3,
          },
          {
            arbitrary: fc.constantFrom(...RAW_PATH_VALUES).map((value) => ({ value, raw: true })),
            weight: 1,
          },
        )
        .map((value) => [param.name, value] as const),
    ),
  );
  const queryOf = (strict: boolean) =>
    fc.tuple(
      ...operation.queryParams.map((param) =>
        fc
          .option(valueFor(param.schema, pool, strict), { freq: param.required ? 8 : 2 })
          .map((value): [string, string][] =>
            value === null ? [] : queryValues(value).map((v) => [param.name, v]),
          ),
      ),
      strict
        ? fc.constant([])
        : fc
            .option(fc.tuple(nastyString, nastyString), { freq: 4 })
            .map((pair) => (pair ? [pair] : [])),
    );
  const query = fc.oneof(queryOf(false), queryOf(true));
  const body: fc.Arbitrary<FuzzRequest['body']> = operation.body
    ? fc.oneof(
        ...[false, true].map((strict) => ({
          arbitrary: valueFor(operation.body, pool, strict).map((value) => ({
            kind: 'json' as const,
            value,
          })),
          weight: 3,
        })),
        { arbitrary: fc.constant({ kind: 'none' as const }), weight: 1 },
        { arbitrary: rawBody, weight: 1 },
      )
    : operation.method === 'GET'
      ? fc.constant({ kind: 'none' as const })
      : fc.oneof(
          { arbitrary: fc.constant({ kind: 'none' as const }), weight: 4 },
          {
            arbitrary: wrongValue(0).map((value) => ({ kind: 'json' as const, value })),
            weight: 1,
          },
        );
  return fc.record({
    path: path.map((pairs) => Object.fromEntries(pairs)),
    query: query.map((parts) => parts.flat()),
    body,
    userAgent: fc.option(userAgent, { freq: 3 }),
  });
}

/**
 * Percent-encodes a string's UTF-8 bytes (a lone surrogate becomes U+FFFD, as a browser sends it;
 * encodeURIComponent would throw).
 */
function encode(value: string): string {
  return [...Buffer.from(value, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte)) && byte < 128
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/** A request for a failure message: long strings shortened. */
function describeRequest(request: unknown): string {
  return JSON.stringify(request, (_key, value: unknown) =>
    typeof value === 'string' && value.length > 60
      ? `${value.slice(0, 20)}…(${value.length} characters)`
      : value,
  );
}

/** The URL of a generated request. */
function urlOf(operation: ApiOperation, request: FuzzRequest): string {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const param = request.path[name];
    if (!param) return 'x';
    return param.raw ? param.value : encode(param.value);
  });
  const search = request.query.map(([key, value]) => `${encode(key)}=${encode(value)}`).join('&');
  return search ? `${path}?${search}` : path;
}

/** What is wrong with an answer, or null when it is a proper answer. */
function problemOf(response: LightMyRequestResponse): string | null {
  if (response.statusCode >= 500) return `status ${response.statusCode}`;
  const contentType = String(response.headers['content-type'] ?? '');
  if (!contentType.includes('json') && response.statusCode < 400) return null;
  const leak = LEAKS.find((pattern) => pattern.test(response.body));
  if (leak) return `answer leaks ${leak}`;
  if (response.body.includes(MESSAGES.internalError)) return 'internal error message';
  return null;
}

describeEachDatabase('route fuzzing', (kind) => {
  let server: TestServer;
  let adminCookie: string;
  let operations: ApiOperation[];
  let pool: Pool;

  beforeAll(async () => {
    server = await startTestServer(kind);
    adminCookie = await signIn(server);
    const { makers, adminId, databaseId, openFolderId } = await seededAdminRowMakers(
      server,
      adminCookie,
      'Fuzz',
    );
    const upload = await makers.adminUpload('own');
    const link = await makers.freshLink('own');
    const fileId = await makers.freshFile('own');
    const userId = await makers.freshUser();
    const asAdmin = async (url: string, payload: object) =>
      (
        await server.app.inject({ method: 'POST', url, headers: { cookie: adminCookie }, payload })
      ).json<unknown>();
    const field = (await asAdmin('/api/rest/index_fields', { name: 'Fuzz field' })) as {
      id: string;
    };
    const applied = (await asAdmin('/api/rest/applied_indexes', {
      entity_id: fileId,
      indexes: [{ indexFieldId: field.id, value: 'x' }],
    })) as { items: { id: string }[] };
    const permissions = (await asAdmin('/api/rest/folder_permissions', {
      folder_id: openFolderId,
      permissionables: [{ permissionable_id: userId, permissionable_type: 'user' }],
    })) as { id: string }[];
    const ids = [
      openFolderId,
      await makers.freshFolder('own'),
      fileId,
      await makers.freshFile('own'),
      userId,
      field.id,
      applied.items[0]!.id,
      permissions[0]!.id,
      await makers.freshTeam(),
      upload.id,
      upload.key,
      link.id,
      link.token,
      link.invitationId,
      databaseId,
      '00000000-0000-4000-8000-000000000000',
    ];
    expect(ids).not.toContain(adminId);
    pool = { ids };
    const all = apiOperations(server.app);
    operations = [...all.filter((o) => !isDestructive(o)), ...all.filter(isDestructive)];
  });
  afterAll(async () => {
    await server.close();
  });

  const fuzz = async (actor: 'admin' | 'anon', runs: number) => {
    expect(operations.length).toBeGreaterThan(100);
    const failures: string[] = [];
    let sent = 0;
    for (const operation of operations) {
      const seed = (BASE_SEED ^ hash(`${actor} ${operation.name}`)) | 0;
      const property = fc.asyncProperty(requestFor(operation, pool), async (request) => {
        let cookie = actor === 'admin' ? adminCookie : undefined;
        if (cookie && FRESH_SESSION_ROUTES.has(operation.name)) cookie = await signIn(server);
        const body = request.body;
        const response = await server.app.inject({
          method: operation.method,
          url: urlOf(operation, request),
          headers: {
            ...(cookie ? { cookie } : {}),
            ...(request.userAgent !== null ? { 'user-agent': request.userAgent } : {}),
            ...(body.kind === 'json' ? { 'content-type': 'application/json' } : {}),
            ...(body.kind === 'raw' ? { 'content-type': body.contentType } : {}),
          },
          ...(body.kind === 'json' ? { payload: JSON.stringify(body.value) } : {}),
          ...(body.kind === 'raw' ? { payload: body.text } : {}),
        });
        sent++;
        const problem = problemOf(response);
        if (problem) {
          throw new Error(`${problem}: ${response.statusCode} ${response.body.slice(0, 200)}`);
        }
      });
      const details = await fc.check(property, { seed, numRuns: runs, endOnFailure: true });
      if (details.failed) {
        const request = describeRequest(details.counterexample?.[0] ?? null);
        const error = details.errorInstance instanceof Error ? details.errorInstance.message : '';
        failures.push(
          `${operation.name} as ${actor} (seed ${seed}, base FUZZ_SEED=${BASE_SEED}): ${error}\n    request: ${request}`,
        );
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(operations.length * runs);
  };

  it('answers a page number past MAX_PAGE_NUMBER with 400, and the last page with 200', async () => {
    const lists = [
      'GET /api/rest/entities/archived',
      'POST /api/rest/entities/archived',
      'GET /api/rest/entities/favorites',
      'GET /api/rest/entities/recent',
      'GET /api/rest/private/users',
      'GET /api/rest/folders',
      'GET /api/rest/entities',
      'GET /api/rest/private/outbox',
      'POST /api/rest/entities/search/missing-indexes',
    ];
    const field = await server.app.inject({
      method: 'POST',
      url: '/api/rest/index_fields',
      headers: { cookie: adminCookie },
      payload: { name: 'Paging field', type: 'number' },
    });
    const fieldId = field.json<{ id: string }>().id;
    for (const list of lists) {
      const [method, url] = list.split(' ') as ['GET' | 'POST', string];
      const answers: number[] = [];
      for (const page of [1e308, MAX_PAGE_NUMBER + 1, MAX_PAGE_NUMBER]) {
        const response = await server.app.inject({
          method,
          url: `${url}?page=${page}`,
          headers: { cookie: adminCookie },
          ...(method === 'POST'
            ? { payload: url.endsWith('missing-indexes') ? { index_field_ids: [fieldId] } : {} }
            : {}),
        });
        answers.push(response.statusCode);
      }
      expect({ list, answers }).toEqual({ list, answers: [400, 400, 200] });
    }
  });

  it(`answers generated malformed input without a 5xx or a stack trace (admin, ${ADMIN_RUNS} runs a route)`, async () => {
    await fuzz('admin', ADMIN_RUNS);
  }, 240_000);

  it(`answers generated malformed input without a 5xx or a stack trace (no session, ${ANON_RUNS} runs a route)`, async () => {
    await fuzz('anon', ANON_RUNS);
  }, 120_000);
});
