/**
 * Search benchmark: `npm run bench -- search`. Prints figures; asserts nothing.
 *
 * For SQLite, and for PostgreSQL when one answers at BENCH_PG_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres); BENCH_SEARCH_DB=sqlite or =postgres runs one:
 * 1. generates BENCH_SEARCH_FILES files (default 1,000,000) across BENCH_SEARCH_FOLDERS folders
 *    (default 10,000: 100 top-level groups of client folders), BENCH_SEARCH_CONTACTS contacts
 *    (default 20,000, two linked to each client folder) and three index fields with values on
 *    every file (account number, tax year, document type). Rows are inserted directly with Kysely
 *    in big transactions **with the search triggers on** (so the generation also measures the
 *    triggers); the applied values are inserted before their files, so each file's document is
 *    built once, with its index text, by the files trigger. ANALYZE runs at the end (VACUUM
 *    ANALYZE on PostgreSQL, as autovacuum would: it also flushes the GIN pending list).
 * 2. measures, **in-process through the service** (server/services/search.ts, no HTTP), the
 *    autocomplete p50/p95 of short (2-character) and long (several words) queries, for an
 *    administrator and for a member with a restricted folder hidden from them, and the p50/p95 of
 *    filtered searches (a word + type + date preset; 2 characters + type + date preset, the broad
 *    worst case; favorites + 2 characters; folder subtree + type; index value + query), page 1
 *    of 50 with its total;
 * 3. beside them, called in turns with each autocomplete, the raw full-text query alone on the
 *    same data with the same match expression (FTS5 MATCH … LIMIT 10, or tsv @@ to_tsquery …
 *    LIMIT 10: no firm, visibility, ranking or presentation), and the ratio of their p95s. Targets: autocomplete p95 under 30 ms and within 2× of the raw query.
 * The machine's load average is printed with the figures (the benchmark shares the CPU).
 * BENCH_SEARCH_KEEP=<folder> keeps the generated data (the SQLite file in the folder, the
 * PostgreSQL database named in `<folder>/postgres.json`) and reuses it on later runs with the
 * same sizes, so a change can be measured without generating 1,000,000 files again.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Insertable } from 'kysely';
import { contentTypeFor } from '@common/files';
import { nameKey } from '@common/names';
import type { SearchFilters } from '@common/search';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '@server/db/database';
import type { FoldersTable, NewFile } from '@server/db/schema';
import { loadConfig } from '@server/config';
import { newId, systemClock } from '@server/ids';
import { rawTextQuery } from '@server/repositories/search';
import { seed } from '@server/seed';
import type { RequestContext, Services } from '@server/services/context';
import { autocomplete, queryWords, searchEntities } from '@server/services/search';
import { percentile, prng, postgresReachable, scratchDatabase } from './benchUtils';

const PASSWORD = 'bench-search-password';
/** Calls per autocomplete line (BENCH_SEARCH_REPEAT) and per filtered search line. */
const REPEAT = Number(process.env.BENCH_SEARCH_REPEAT ?? 1000);
const FILTER_REPEAT = Number(process.env.BENCH_SEARCH_FILTER_REPEAT ?? 200);

/** Options of {@link runSearchBench}. */
export interface SearchBenchOptions {
  files?: number;
  folders?: number;
  contacts?: number;
}

interface Firm {
  databaseId: string;
  userId: string;
}

const FIRST = (
  'James Mary John Patricia Robert Jennifer Michael Linda William Elizabeth David Barbara Richard ' +
  'Susan Joseph Jessica Thomas Sarah Charles Karen Daniel Nancy Matthew Lisa Anthony Betty Mark ' +
  'Margaret Donald Sandra Steven Ashley Paul Kimberly Andrew Emily Joshua Donna Kenneth Michelle'
).split(' ');
const LAST = (
  'Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez ' +
  'Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris ' +
  'Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill ' +
  'Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts Okafor Lindqvist ' +
  'Fitzgerald Kowalski Haddad Novak Schneider Dubois Rossi Yamamoto'
).split(' ');
const DOCS = (
  'Statement Invoice Return Letter Scan Report Contract Memo Receipt Payslip Mortgage Pension ' +
  'Dividend Valuation Engagement Budget Ledger Estimate Agreement Certificate Notice Summary ' +
  'Schedule Proposal Audit Deed Will Trust Insurance Loan'
).split(' ');
const EXTENSIONS = ['pdf', 'pdf', 'pdf', 'docx', 'xlsx', 'jpg', 'png', 'txt', 'csv', 'msg'];
const GROUPS = 100;

const pick = <T>(list: readonly T[], random: () => number): T =>
  list[Math.floor(random() * list.length)]!;

async function timed<T>(fn: () => Promise<T>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** p50/p95 of running `fn` `repeat` times over the inputs in round robin (after one warm-up pass). */
async function measure<I>(
  inputs: I[],
  fn: (input: I) => Promise<unknown>,
  repeat: number,
): Promise<{ p50: number; p95: number }> {
  for (const input of inputs) await fn(input);
  const times: number[] = [];
  for (let i = 0; i < repeat; i += 1) times.push(await timed(() => fn(inputs[i % inputs.length]!)));
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

/**
 * p50/p95 of two functions on the same inputs, called in turns (a, b, a, b, …) so that both see
 * the same moments of a shared machine; one warm-up pass of each first.
 */
async function measureSide<I>(
  inputs: I[],
  a: (input: I) => Promise<unknown>,
  b: (input: I) => Promise<unknown>,
): Promise<[{ p50: number; p95: number }, { p50: number; p95: number }]> {
  for (const input of inputs) {
    await a(input);
    await b(input);
  }
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < REPEAT; i += 1) {
    const input = inputs[i % inputs.length]!;
    times[0].push(await timed(() => a(input)));
    times[1].push(await timed(() => b(input)));
  }
  const stats = (list: number[]) => {
    list.sort((x, y) => x - y);
    return { p50: percentile(list, 50), p95: percentile(list, 95) };
  };
  return [stats(times[0]), stats(times[1])];
}

const ms = (n: number) => `${n.toFixed(2)} ms`;
const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** Inserts rows in batches inside the open executor. */
async function insertBatches<T>(
  rows: T[],
  batch: number,
  insert: (chunk: T[]) => Promise<unknown>,
): Promise<void> {
  for (let i = 0; i < rows.length; i += batch) await insert(rows.slice(i, i + batch));
}

/** Generates the data set; answers sample queries drawn from it. */
async function generate(
  database: DatabaseHandle,
  firm: Firm,
  options: Required<SearchBenchOptions>,
): Promise<{
  long: string[];
  folderIds: string[];
  accountValues: string[];
  fieldIds: { account: string; year: string; type: string };
  restrictedId: string;
}> {
  const { db } = database;
  const random = prng(9);
  const now = new Date().toISOString();
  const started = performance.now();
  const fieldIds = { account: newId(), year: newId(), type: newId() };
  await db
    .insertInto('index_fields')
    .values(
      (
        [
          [fieldIds.account, 'Account number', 'text_field'],
          [fieldIds.year, 'Tax year', 'number'],
          [fieldIds.type, 'Document type', 'list'],
        ] as const
      ).map(([id, name, type], position) => ({
        id,
        database_id: firm.databaseId,
        name,
        name_key: name.toLowerCase(),
        type,
        description: '',
        position,
        archived_at: null,
        deleted_at: null,
        created_by: firm.userId,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();

  // Contacts.
  const contacts = Array.from({ length: options.contacts }, () => {
    const name = `${pick(FIRST, random)} ${pick(LAST, random)}`;
    return {
      id: newId(),
      database_id: firm.databaseId,
      crm_id: newId(),
      name,
      name_key: name.toLowerCase(),
      email: null,
      phones: '[]',
      created_at: now,
      updated_at: now,
    };
  });
  await db.transaction().execute(async (trx) => {
    await insertBatches(contacts, 1000, (c) => trx.insertInto('contacts').values(c).execute());
  });

  // Folders: GROUPS top-level groups, the rest client folders under them.
  const folderRow = (parentId: string, name: string): Insertable<FoldersTable> => ({
    id: newId(),
    database_id: firm.databaseId,
    parent_id: parentId,
    name,
    name_key: nameKey(name),
    created_by: firm.userId,
    created_at: now,
    updated_at: now,
    archived_at: null,
    archived_root_id: null,
  });
  const groups = Array.from({ length: GROUPS }, (_, i) =>
    folderRow('', `Clients ${String(i).padStart(3, '0')}`),
  );
  const clients = Array.from({ length: options.folders - GROUPS }, (_, i) =>
    folderRow(
      groups[i % GROUPS]!.id,
      `${pick(LAST, random)} ${pick(FIRST, random)} ${String(i).padStart(5, '0')}`,
    ),
  );
  const links = clients.flatMap((folder) =>
    [0, 1].map(() => ({
      id: newId(),
      database_id: firm.databaseId,
      folder_id: folder.id,
      contact_id: pick(contacts, random).id,
      created_by: firm.userId,
      created_at: now,
    })),
  );
  const uniqueLinks = [
    ...new Map(links.map((l) => [`${l.folder_id}/${l.contact_id}`, l])).values(),
  ];
  await db.transaction().execute(async (trx) => {
    await insertBatches([...groups, ...clients], 1000, (f) =>
      trx.insertInto('folders').values(f).execute(),
    );
    await insertBatches(uniqueLinks, 1000, (l) =>
      trx.insertInto('folder_contacts').values(l).execute(),
    );
  });
  console.log(
    `  contacts, folders and links: ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  // Files, in chunks of 100,000 per transaction: the applied values first, then the files.
  const long: string[] = [];
  const accountValues: string[] = [];
  const favoriteIds: string[] = [];
  const chunk = 100_000;
  for (let done = 0; done < options.files; done += chunk) {
    const files: NewFile[] = [];
    const applied: {
      id: string;
      database_id: string;
      entity_type: 'file';
      entity_id: string;
      index_field_id: string;
      value: string;
      archived_at: null;
      created_by: string;
      created_at: string;
      updated_at: string;
    }[] = [];
    const createdAt = new Date(Date.now() - Math.floor(random() * 3 * 365) * 86_400_000);
    for (let i = done; i < Math.min(options.files, done + chunk); i += 1) {
      const folder = clients[i % clients.length]!;
      const doc = pick(DOCS, random);
      const year = String(2015 + Math.floor(random() * 10));
      const ext = pick(EXTENSIONS, random);
      const name = `${doc} ${year} ${folder.name.split(' ')[0]} ${String(i).padStart(7, '0')}.${ext}`;
      const id = newId();
      const created = new Date(createdAt.getTime() - Math.floor(random() * 86_400_000 * 30));
      files.push({
        id,
        database_id: firm.databaseId,
        folder_id: folder.id,
        name,
        name_key: nameKey(name),
        extension: ext,
        size: 1000 + Math.floor(random() * 1_000_000),
        content_type: contentTypeFor(ext),
        storage_key: `bench/${id}`,
        status: 'ready',
        sha256: null,
        created_by: firm.userId,
        created_at: created.toISOString(),
        updated_at: created.toISOString(),
        archived_at: null,
        archived_root_id: null,
      });
      const account = `ACC-${String(100000 + Math.floor(random() * 900000))}`;
      for (const [field, value] of [
        [fieldIds.account, account],
        [fieldIds.year, year],
        [fieldIds.type, doc],
      ] as const) {
        applied.push({
          id: newId(),
          database_id: firm.databaseId,
          entity_type: 'file',
          entity_id: id,
          index_field_id: field,
          value,
          archived_at: null,
          created_by: firm.userId,
          created_at: now,
          updated_at: now,
        });
      }
      if (i % Math.max(1, Math.floor(options.files / 500)) === 0 && favoriteIds.length < 500) {
        favoriteIds.push(id);
      }
      if (i % 997 === 0) {
        long.push(`${doc} ${year} ${folder.name.split(' ')[0]} ${String(i).padStart(7, '0')}`);
        accountValues.push(account);
      }
    }
    await db.transaction().execute(async (trx) => {
      await insertBatches(applied, 1000, (a) =>
        trx.insertInto('applied_indexes').values(a).execute(),
      );
      await insertBatches(files, 1000, (f) => trx.insertInto('files').values(f).execute());
    });
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(
      `\r  files: ${Math.min(options.files, done + chunk).toLocaleString('en-US')} in ${seconds.toFixed(0)} s (load ${load()})   `,
    );
  }
  process.stdout.write('\n');
  // The administrator's favorites: 500 files.
  await db
    .insertInto('favorites')
    .values(
      favoriteIds.map((entityId) => ({
        id: newId(),
        database_id: firm.databaseId,
        entity_type: 'file',
        entity_id: entityId,
        user_id: firm.userId,
        enabled: 1,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
  // A restricted folder (one group) that the benchmark's member may not see.
  await db
    .insertInto('folder_permissions')
    .values({
      id: newId(),
      database_id: firm.databaseId,
      folder_id: groups[0]!.id,
      permissionable_id: firm.userId,
      permissionable_type: 'user',
      created_by: firm.userId,
      created_at: now,
    })
    .execute();
  const analyzeStart = performance.now();
  // PostgreSQL: VACUUM as autovacuum would after a bulk load; it also moves the GIN index's
  // pending list (fastupdate) into the index proper, which queries otherwise scan linearly.
  if (database.dialect === 'postgres') await sql`vacuum analyze`.execute(db);
  else await sql`analyze`.execute(db);
  console.log(
    `  generated in ${((performance.now() - started) / 1000).toFixed(1)} s ` +
      `(analyze ${((performance.now() - analyzeStart) / 1000).toFixed(1)} s)`,
  );
  return {
    long,
    // Client folders outside the restricted group (the member filters within them).
    folderIds: clients.filter((_, i) => i % 53 === 0 && i % GROUPS !== 0).map((f) => f.id),
    accountValues,
    fieldIds,
    restrictedId: groups[0]!.id,
  };
}

async function firmOf(database: DatabaseHandle): Promise<Firm> {
  const row = await database.db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['memberships.database_id', 'memberships.user_id'])
    .where('users.username_key', '=', 'admin')
    .executeTakeFirstOrThrow();
  return { databaseId: row.database_id, userId: row.user_id };
}

/** One database kind, end to end. */
/** What {@link generate} answers, kept beside a data set that BENCH_SEARCH_KEEP keeps. */
type Samples = Awaited<ReturnType<typeof generate>>;

/** A kept data set (BENCH_SEARCH_KEEP): its database URL and samples. */
interface Kept {
  databaseUrl: string;
  options: Required<SearchBenchOptions>;
  samples: Samples;
}

/**
 * The data set of one database kind: generated in a scratch database, or, with
 * BENCH_SEARCH_KEEP=<folder>, generated once into that folder (SQLite) or a database it names
 * (PostgreSQL) and reused by later runs with the same sizes (migrated to the latest schema).
 */
async function dataSet(
  kind: 'sqlite' | 'postgres',
  options: Required<SearchBenchOptions>,
): Promise<{
  database: DatabaseHandle;
  databaseUrl: string;
  samples: Samples;
  dispose: () => Promise<void>;
}> {
  const keep = process.env.BENCH_SEARCH_KEEP;
  const keptFile = keep ? path.join(keep, `${kind}.json`) : null;
  if (keptFile && existsSync(keptFile)) {
    const kept = JSON.parse(readFileSync(keptFile, 'utf8')) as Kept;
    if (JSON.stringify(kept.options) === JSON.stringify(options)) {
      console.log(`  reusing the data set kept in ${keptFile}`);
      const database = openDatabase(kept.databaseUrl);
      await migrateToLatest(database.db);
      if (database.dialect === 'postgres') await sql`vacuum analyze`.execute(database.db);
      else await sql`analyze`.execute(database.db);
      return {
        database,
        databaseUrl: kept.databaseUrl,
        samples: kept.samples,
        dispose: () => database.close(),
      };
    }
  }
  const dataDir = keep
    ? path.join(keep, kind)
    : mkdtempSync(path.join(os.tmpdir(), `dossier-bench-search-${kind}-`));
  if (keep) {
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
  }
  const { databaseUrl, dropDatabase } = await scratchDatabase(
    kind,
    dataDir,
    'dossier_bench_search',
  );
  const database = openDatabase(databaseUrl);
  await migrateToLatest(database.db);
  await seed(database.db, { username: 'admin', password: PASSWORD }, systemClock);
  const firm = await firmOf(database);
  const samples = await generate(database, firm, options);
  if (keptFile) {
    writeFileSync(keptFile, JSON.stringify({ databaseUrl, options, samples } satisfies Kept));
    return { database, databaseUrl, samples, dispose: () => database.close() };
  }
  return {
    database,
    databaseUrl,
    samples,
    dispose: async () => {
      await database.close();
      await dropDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function benchDatabase(
  kind: 'sqlite' | 'postgres',
  options: Required<SearchBenchOptions>,
): Promise<void> {
  console.log(
    `\nsearch [${kind}]: ${options.files.toLocaleString('en-US')} files, ` +
      `${options.folders.toLocaleString('en-US')} folders, ` +
      `${options.contacts.toLocaleString('en-US')} contacts (load ${load()})`,
  );
  const { database, databaseUrl, samples: data, dispose } = await dataSet(kind, options);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `dossier-bench-search-${kind}-config-`));
  try {
    const firm = await firmOf(database);
    const services: Services = {
      db: database.db,
      dialect: database.dialect,
      store: undefined as unknown as Services['store'],
      clock: systemClock,
      config: loadConfig({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl }),
    };
    const ctxOf = (role: 'admin' | 'member'): RequestContext => ({
      userId: role === 'admin' ? firm.userId : 'bench-member',
      userName: 'Bench',
      databaseId: firm.databaseId,
      role,
      sessionId: 'bench',
      ip: null,
      userAgent: null,
    });
    const random = prng(11);
    const vocabulary = [...DOCS, ...LAST, ...FIRST, '2019', '2023', 'ACC'];
    const short = Array.from({ length: 40 }, () => pick(vocabulary, random).slice(0, 2));
    const long = data.long.slice(0, 100);
    console.log(
      `  in-process through services/search.ts; ${REPEAT} calls per autocomplete line, ${FILTER_REPEAT} per filtered search; load ${load()}`,
    );
    for (const [label, queries] of [
      ['short (2 chars)', short],
      ['long (4 words)', long],
    ] as const) {
      for (const role of ['admin', 'member'] as const) {
        const [service, raw] = await measureSide(
          queries,
          (q) => autocomplete(services, ctxOf(role), q),
          (q) => rawTextQuery(database.db, database.dialect, queryWords(q), 10),
        );
        console.log(
          `  autocomplete ${label}, ${role}: p50 ${ms(service.p50)}, p95 ${ms(service.p95)}` +
            ` | raw FTS p50 ${ms(raw.p50)}, p95 ${ms(raw.p95)}` +
            ` | ratio p95 service/raw ${(service.p95 / raw.p95).toFixed(2)}×`,
        );
      }
    }
    const filterSets: [string, SearchFilters[], ('admin' | 'member')?][] = [
      [
        'one word + PDF + This year',
        Array.from({ length: 40 }, () => ({
          query: pick(vocabulary, random),
          types: ['PDF'],
          date_preset: 'This year',
        })),
      ],
      [
        '2 chars + PDF + This year (broad: the worst case)',
        short.map((q) => ({ query: q, types: ['PDF'], date_preset: 'This year' })),
      ],
      ['favorites only + 2 chars', short.map((q) => ({ query: q, favorites_only: true })), 'admin'],
      [
        'folder subtree + Spreadsheet',
        data.folderIds.map((id) => ({ folder_id: id, types: ['Spreadsheet'] })),
      ],
      [
        'index value + query',
        data.accountValues.map((value) => ({
          query: pick(DOCS, random).slice(0, 3),
          index_values: [{ index_field_id: data.fieldIds.account, value }],
        })),
      ],
    ];
    for (const [label, sets, role = 'member'] of filterSets) {
      const result = await measure(
        sets,
        (filters) => searchEntities(services, ctxOf(role), filters, 1, 50, { requireQuery: false }),
        FILTER_REPEAT,
      );
      console.log(
        `  filtered search (${label}), ${role}, page 1 of 50 with total: p50 ${ms(result.p50)}, p95 ${ms(result.p95)}`,
      );
    }
    console.log(`  load average after: ${load()}`);
  } finally {
    await dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs the search benchmark on SQLite and (when reachable) PostgreSQL. */
export async function runSearchBench(options: SearchBenchOptions = {}): Promise<void> {
  const resolved: Required<SearchBenchOptions> = {
    files: options.files ?? Number(process.env.BENCH_SEARCH_FILES ?? 1_000_000),
    folders: options.folders ?? Number(process.env.BENCH_SEARCH_FOLDERS ?? 10_000),
    contacts: options.contacts ?? Number(process.env.BENCH_SEARCH_CONTACTS ?? 20_000),
  };
  const kinds = (process.env.BENCH_SEARCH_DB ?? 'sqlite,postgres').split(',');
  if (kinds.includes('sqlite')) await benchDatabase('sqlite', resolved);
  if (kinds.includes('postgres')) {
    if (await postgresReachable()) await benchDatabase('postgres', resolved);
    else console.log('\nsearch [postgres]: no PostgreSQL at BENCH_PG_URL, skipped');
  }
}

// Run directly: `tsx bench/search.ts`.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  runSearchBench().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
