/**
 * Helpers the benchmarks share: percentiles, a deterministic PRNG, and a throw-away database per
 * run (an SQLite file in the run's folder, or a fresh PostgreSQL database at BENCH_PG_URL that is
 * dropped afterwards).
 */
import path from 'node:path';
import pg from 'pg';

/** Where the PostgreSQL benchmarks create their databases (BENCH_PG_URL). */
export const BENCH_PG_ADMIN =
  process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The p-th percentile (0–100) of ascending numbers; NaN when there are none. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** The median of some numbers (the upper middle one of an even count); NaN when there are none. */
export function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/** A small deterministic PRNG (mulberry32), so runs are comparable: numbers in [0, 1). */
export function prng(seedValue: number): () => number {
  let s = seedValue >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A benchmark's database: its URL and how to remove it afterwards. */
export interface BenchDatabase {
  databaseUrl: string;
  dropDatabase: () => Promise<void>;
}

/**
 * A database for one run: SQLite `dossier.sqlite` in `dataDir`, or a new PostgreSQL database
 * named `<prefix>_<ms>` at BENCH_PG_ADMIN (dropped with `dropDatabase`).
 */
export async function scratchDatabase(
  kind: 'sqlite' | 'postgres',
  dataDir: string,
  prefix: string,
): Promise<BenchDatabase> {
  if (kind === 'sqlite') {
    return {
      databaseUrl: `sqlite://${path.join(dataDir, 'dossier.sqlite')}`,
      dropDatabase: () => Promise.resolve(),
    };
  }
  const name = `${prefix}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: BENCH_PG_ADMIN });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(BENCH_PG_ADMIN);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    dropDatabase: async () => {
      const c = new pg.Client({ connectionString: BENCH_PG_ADMIN });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** Whether PostgreSQL answers at BENCH_PG_ADMIN within 3 s (the benchmarks skip it otherwise). */
export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: BENCH_PG_ADMIN, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
