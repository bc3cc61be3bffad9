/**
 * The document-imaging job queue (docs/architecture.md "Document imaging") on both databases:
 * claim, lease expiry after a crash, retry with backoff, giving up with the reason kept, two
 * workers never taking the same job, and the backfill of files recorded before imaging existed.
 */
import os from 'node:os';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { loadConfig } from '@server/config';
import type { JobRow } from '@server/db/schemaImaging';
import { isoAt, newId } from '@server/ids';
import {
  claimJobs,
  completeJob,
  countJobsByState,
  failAbandonedJobs,
  failAttempt,
  findJobForFile,
  requeueFailedJobs,
} from '@server/repositories/jobs';
import {
  backfillDerivations,
  enqueueDerivations,
  retryDelayMs,
} from '@server/services/imaging/queue';
import {
  ABANDONED_REASON,
  PermanentJobError,
  startImagingWorker,
} from '@server/services/imaging/worker';
import { missingToolMessage } from '@common/imaging';
import { startImaging } from '@server/services/imaging/lifecycle';
import { itWithTools } from './imagingHelpers';
import { describeEachDatabase, signIn, startTestServer, type TestServer } from './helpers';
import { fileRow, firmOf, folderRow, insertRows, type Firm } from './seedRows';

const silentLog = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
} as never;

it('waits 30 s after the first failure, doubling up to an hour', () => {
  expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([30_000, 60_000, 120_000, 240_000]);
  expect(retryDelayMs(20)).toBe(3_600_000);
});

it('reads the imaging configuration with its defaults', () => {
  const defaults = loadConfig({ DATA_DIR: '/tmp/dossier-imaging-config', SESSION_SECRET: 's' });
  expect(defaults.imagingConcurrency).toBe(Math.max(1, Math.floor(os.availableParallelism() / 2)));
  expect(defaults.imagingTimeoutMs).toBe(300_000);
  expect(defaults.imagingMaxAttempts).toBe(5);
  expect(defaults.ocrLanguages).toEqual(['eng']);
  const set = loadConfig({
    DATA_DIR: '/tmp/dossier-imaging-config',
    SESSION_SECRET: 's',
    IMAGING_CONCURRENCY: '3',
    IMAGING_TIMEOUT_SECONDS: '20',
    OCR_LANGUAGES: 'eng+deu, fra',
  });
  expect(set.imagingConcurrency).toBe(3);
  expect(set.imagingTimeoutMs).toBe(20_000);
  expect(set.ocrLanguages).toEqual(['eng', 'deu', 'fra']);
  expect(() =>
    loadConfig({
      DATA_DIR: '/tmp/dossier-imaging-config',
      SESSION_SECRET: 's',
      OCR_LANGUAGES: 'e;ng',
    }),
  ).toThrow('OCR_LANGUAGES');
});

describeEachDatabase('imaging job queue', (kind) => {
  let server: TestServer;
  let firm: Firm;
  let folderId: string;

  beforeAll(async () => {
    server = await startTestServer(kind, { env: { IMAGING_MAX_ATTEMPTS: '2' } });
    firm = await firmOf(server, await signIn(server));
    const folder = folderRow(firm, '', 'Imaging');
    folderId = folder.id;
    await insertRows(server, { folders: [folder] });
  });
  afterAll(async () => {
    await server.close();
  });

  /** Inserts ready files and queues a derive job for each; answers the file ids. */
  async function queuedFiles(count: number, name = 'scan.pdf'): Promise<string[]> {
    const files = Array.from({ length: count }, () =>
      fileRow(firm, folderId, `${newId()}-${name}`),
    );
    await insertRows(server, { files });
    await enqueueDerivations(
      server.services,
      files.map((f) => ({
        databaseId: firm.databaseId,
        id: f.id,
        extension: f.extension,
        contentType: f.content_type,
        sha256: null,
      })),
    );
    return files.map((f) => f.id);
  }

  const job = async (fileId: string): Promise<JobRow> =>
    (await findJobForFile(server.services.db, 'derive', fileId))!;

  const claim = (workerId: string, limit = 10, leaseSeconds = 60) =>
    claimJobs(server.services.db, {
      dialect: server.services.dialect,
      workerId,
      now: isoAt(() => server.clock.now),
      leaseUntil: new Date(server.clock.now + leaseSeconds * 1000).toISOString(),
      limit,
    });

  /** Marks every job finished, so that later tests claim only their own. */
  async function drainQueue(): Promise<void> {
    server.clock.now += 61_000; // past every lease of earlier tests
    for (const taken of await claim('drain', 10_000)) {
      await completeJob(
        server.services.db,
        taken.id,
        'drain',
        isoAt(() => server.clock.now),
        null,
      );
    }
  }

  it('queues one job per file, only for formats it derives from, and claims it once', async () => {
    await drainQueue();
    const [fileId] = await queuedFiles(1);
    const [zipId] = await queuedFiles(1, 'bundle.zip');
    await enqueueDerivations(server.services, [
      { databaseId: firm.databaseId, id: fileId!, extension: 'pdf', contentType: '', sha256: null },
    ]);
    expect(await findJobForFile(server.services.db, 'derive', zipId!)).toBeUndefined();
    const first = await claim('worker-a');
    expect(first.map((j) => j.file_id)).toEqual([fileId]);
    expect(first[0]).toMatchObject({ state: 'running', attempts: 1, locked_by: 'worker-a' });
    expect(await claim('worker-b')).toEqual([]);
    const now = isoAt(() => server.clock.now);
    expect(
      await completeJob(server.services.db, first[0]!.id, 'worker-a', now, 'ab'.repeat(32)),
    ).toBe(true);
    expect(await job(fileId!)).toMatchObject({ state: 'done', sha256: 'ab'.repeat(32) });
  });

  it('retries after the backoff and gives up after the limit, keeping the reason', async () => {
    await drainQueue();
    const [fileId] = await queuedFiles(1);
    const [taken] = await claim('worker-a');
    const now = server.clock.now;
    await failAttempt(server.services.db, taken!.id, 'worker-a', {
      error: 'soffice crashed',
      now: new Date(now).toISOString(),
      retryAt: new Date(now + retryDelayMs(1)).toISOString(),
    });
    expect(await job(fileId!)).toMatchObject({ state: 'queued', last_error: 'soffice crashed' });
    expect(await claim('worker-a')).toEqual([]);
    server.clock.now += retryDelayMs(1);
    const [again] = await claim('worker-b');
    expect(again).toMatchObject({ file_id: fileId, attempts: 2 });
    await failAttempt(server.services.db, again!.id, 'worker-b', {
      error: 'soffice crashed again',
      now: isoAt(() => server.clock.now),
      retryAt: null,
    });
    expect(await job(fileId!)).toMatchObject({
      state: 'failed',
      attempts: 2,
      last_error: 'soffice crashed again',
    });
    server.clock.now += retryDelayMs(10);
    expect(await claim('worker-b')).toEqual([]);
  });

  it('takes a job back from a worker that stopped once its lease ran out', async () => {
    await drainQueue();
    const [fileId] = await queuedFiles(1);
    const [crashed] = await claim('worker-crashed', 1, 60);
    server.clock.now += 30_000;
    expect(await claim('worker-new')).toEqual([]);
    server.clock.now += 31_000;
    const [resumed] = await claim('worker-new');
    expect(resumed).toMatchObject({ id: crashed!.id, attempts: 2, locked_by: 'worker-new' });
    // The stopped worker coming back changes nothing.
    const now = isoAt(() => server.clock.now);
    expect(await completeJob(server.services.db, crashed!.id, 'worker-crashed', now, null)).toBe(
      false,
    );
    expect(await job(fileId!)).toMatchObject({ state: 'running', locked_by: 'worker-new' });
    // Abandoned again at the limit (2 attempts): it gives up with the reason.
    server.clock.now += 61_000;
    const later = isoAt(() => server.clock.now);
    expect(await failAbandonedJobs(server.services.db, later, 2, ABANDONED_REASON)).toBe(1);
    expect(await job(fileId!)).toMatchObject({ state: 'failed', last_error: ABANDONED_REASON });
  });

  it('never gives one job to two claimers at once', async () => {
    await drainQueue();
    const ids = await queuedFiles(60);
    const taken: string[][] = [[], [], [], []];
    await Promise.all(
      taken.map(async (mine, n) => {
        for (;;) {
          const jobs = await claim(`racer-${n}`, 3);
          if (jobs.length === 0) return;
          mine.push(...jobs.map((j) => j.file_id));
        }
      }),
    );
    const all = taken.flat();
    expect(all.sort()).toEqual([...ids].sort());
    expect(new Set(all).size).toBe(all.length);
  });

  it('runs jobs with two workers, each job once; a permanent failure gives up at once', async () => {
    await drainQueue();
    const ids = await queuedFiles(12);
    const [broken] = await queuedFiles(1, 'broken.pdf');
    const ran: string[] = [];
    const handler = async (taken: JobRow) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (taken.file_id === broken) throw new PermanentJobError('not a PDF');
      ran.push(taken.file_id);
      return null;
    };
    const workers = [1, 2].map(() =>
      startImagingWorker(server.services, silentLog, handler, { concurrency: 2, pollMs: 50 }),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    await Promise.all(workers.map((w) => w.idle()));
    await Promise.all(workers.map((w) => w.stop()));
    expect(ran.sort()).toEqual([...ids].sort());
    expect(await job(broken!)).toMatchObject({
      state: 'failed',
      attempts: 1,
      last_error: 'not a PDF',
    });
    expect((await countJobsByState(server.services.db, firm.databaseId)).running).toBe(0);
  });

  it('retries a failed attempt in the worker after the backoff, then gives up', async () => {
    await drainQueue();
    const [fileId] = await queuedFiles(1);
    const worker = startImagingWorker(
      server.services,
      silentLog,
      () => Promise.reject(new Error('tool timed out')),
      { pollMs: 50 },
    );
    await worker.idle();
    expect(await job(fileId!)).toMatchObject({ state: 'queued', attempts: 1 });
    server.clock.now += retryDelayMs(1);
    worker.wake();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await worker.idle();
    await worker.stop();
    expect(await job(fileId!)).toMatchObject({
      state: 'failed',
      attempts: 2,
      last_error: 'tool timed out',
    });
  });

  it('leaves a job held by a stopping worker to be taken again', async () => {
    await drainQueue();
    const [fileId] = await queuedFiles(1);
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const worker = startImagingWorker(
      server.services,
      silentLog,
      (_job, signal) =>
        new Promise((_resolve, reject) => {
          started();
          signal.addEventListener('abort', () => reject(new Error('killed')));
        }),
      { pollMs: 50 },
    );
    await running;
    await worker.stop();
    expect(await job(fileId!)).toMatchObject({ state: 'running', attempts: 1, last_error: null });
    server.clock.now += 61_000;
    expect((await claim('after-restart')).map((j) => j.file_id)).toEqual([fileId]);
  });

  it('lets a running job finish within the grace of a stop, and aborts one past it', async () => {
    await drainQueue();
    const [slowId, stuckId] = await queuedFiles(2);
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    let started = 0;
    let bothStarted!: () => void;
    const running = new Promise<void>((resolve) => (bothStarted = resolve));
    const aborted: string[] = [];
    const worker = startImagingWorker(
      server.services,
      silentLog,
      (job, signal) =>
        new Promise((resolve, reject) => {
          started += 1;
          if (started === 2) bothStarted();
          signal.addEventListener('abort', () => {
            aborted.push(job.file_id);
            reject(new Error('killed'));
          });
          // The slow job ends once the stop has begun; the stuck one never does by itself.
          if (job.file_id === slowId) void finished.then(() => resolve(null));
        }),
      { pollMs: 50, concurrency: 2 },
    );
    await running;
    const stopping = worker.stop(200);
    finish();
    await stopping;
    expect(aborted).toEqual([stuckId]);
    expect(await job(slowId!)).toMatchObject({ state: 'done', attempts: 1 });
    expect(await job(stuckId!)).toMatchObject({ state: 'running', attempts: 1, last_error: null });
  });

  it('queues again only the failed jobs whose reason starts with the prefix, taken literally', async () => {
    await drainQueue();
    const [literal, wildcard] = await queuedFiles(2);
    for (const [fileId, error] of [
      [literal, '10% tool not found'],
      [wildcard, '1000 tool not found'],
    ] as const) {
      const [taken] = await claim(`w-${fileId}`, 1);
      expect(taken!.file_id).toBe(fileId);
      await failAttempt(server.services.db, taken!.id, `w-${fileId}`, {
        error,
        now: isoAt(() => server.clock.now),
        retryAt: null,
      });
    }
    const now = isoAt(() => server.clock.now);
    expect(await requeueFailedJobs(server.services.db, '10%', now)).toBe(1);
    expect(await job(literal!)).toMatchObject({ state: 'queued', attempts: 0 });
    expect((await job(wildcard!)).state).toBe('failed');
  });

  it('backfills ready files without a job, once', async () => {
    await drainQueue();
    const files = [
      fileRow(firm, folderId, 'old.docx'),
      fileRow(firm, folderId, 'old.tiff'),
      fileRow(firm, folderId, 'old.zip'),
      fileRow(firm, folderId, 'pending.pdf', { status: 'pending' }),
    ];
    await insertRows(server, { files });
    expect(await backfillDerivations(server.services, 1)).toBe(2);
    expect(await backfillDerivations(server.services)).toBe(0);
    expect((await job(files[0]!.id)).state).toBe('queued');
    expect((await job(files[1]!.id)).state).toBe('queued');
    expect(await findJobForFile(server.services.db, 'derive', files[3]!.id)).toBeUndefined();
  });

  itWithTools(
    ['pdftotext'],
    'at start, queues again the jobs a now-installed tool failed, backfills, and runs them',
    async () => {
      await drainQueue();
      const [waiting] = await queuedFiles(1);
      const [taken] = await claim('old-worker');
      await failAttempt(server.services.db, taken!.id, 'old-worker', {
        error: missingToolMessage('pdftotext'),
        now: isoAt(() => server.clock.now),
        retryAt: null,
      });
      const old = fileRow(firm, folderId, `${newId()}-old.pdf`);
      await insertRows(server, { files: [old] });
      const ran: string[] = [];
      const imaging = startImaging(server.services, silentLog, (j) => {
        ran.push(j.file_id);
        return Promise.resolve(null);
      });
      for (let i = 0; i < 100 && ran.length < 2; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await imaging.stop();
      expect(ran.sort()).toEqual([waiting, old.id].sort());
      expect(await job(waiting!)).toMatchObject({ state: 'done', attempts: 1 });
    },
  );
});
