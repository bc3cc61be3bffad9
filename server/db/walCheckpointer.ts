/**
 * SQLite WAL checkpoints off the request path (a bulk action of 10,000 items under 1 s).
 *
 * With SQLite's default, the connection whose commit pushes the write-ahead log past 1,000 pages
 * copies the log back into the database file inside that commit: a bulk archive of 10,000 files
 * (about 12,000 pages of log) paid some 110–130 ms of checkpoint before it could answer, and the
 * event loop stood still meanwhile. Here the server's connection stops checkpointing itself
 * (`wal_autocheckpoint = 0`) and a worker thread with its own connection to the same file runs a
 * PASSIVE checkpoint every `intervalMs` (PASSIVE never waits for readers or writers; frames it
 * cannot copy yet are copied by a later run). Durability does not change: a commit is on disk
 * when it is in the log (synchronous=FULL), whoever checkpoints it later.
 *
 * Should the worker fail or exit, the connection goes back to checkpointing itself (1,000 pages),
 * so the log never grows without bound.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';

/** SQLite's own default of `wal_autocheckpoint`, restored when the worker is gone. */
export const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

/** What a checkpoint reports (SQLite's `wal_checkpoint` row). */
export interface CheckpointResult {
  /** 1 when the checkpoint could not run to completion (a lock was held). */
  busy: number;
  /** Frames in the log. */
  log: number;
  /** Frames copied into the database file. */
  checkpointed: number;
}

/** A running checkpoint worker. */
export interface WalCheckpointer {
  /** Runs one PASSIVE checkpoint now, in the worker. @throws Error when the worker is gone */
  checkpointNow(): Promise<CheckpointResult>;
  /** Stops the worker and hands checkpointing back to the connection. */
  stop(): Promise<void>;
}

/** Options of {@link startWalCheckpointer}. */
export interface WalCheckpointerOptions {
  /** Milliseconds between checkpoints (default 1000). */
  intervalMs?: number;
  /** Where a worker failure is reported (default console.warn). */
  warn?: (message: string) => void;
  /** The better-sqlite3 module path for the worker (tests); default: resolved from the project. */
  driverPath?: string;
}

// The worker is plain CommonJS, evaluated as is: it runs the same under tsx, plain node and Jest.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driverPath);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = FULL');
const checkpoint = () => db.pragma('wal_checkpoint(PASSIVE)')[0];
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message.type === 'now') {
    try {
      parentPort.postMessage({ id: message.id, result: checkpoint() });
    } catch (error) {
      parentPort.postMessage({ id: message.id, error: String(error && error.message) });
    }
  } else if (message.type === 'stop') {
    clearInterval(timer);
    db.close();
    parentPort.close();
  }
});
`;

/**
 * Starts the checkpoint worker for the file behind `sqlite` and turns the connection's own
 * checkpoints off. In-memory databases (nothing to checkpoint) and a driver that cannot be found
 * leave the connection as it is and answer null.
 * @param sqlite the server's connection, already in WAL mode
 * @param file the database file's path
 */
export function startWalCheckpointer(
  sqlite: BetterSqlite3.Database,
  file: string,
  options: WalCheckpointerOptions = {},
): WalCheckpointer | null {
  if (sqlite.memory || file === ':memory:' || file === '') return null;
  const warn = options.warn ?? ((message: string) => console.warn(message));
  let driverPath = options.driverPath;
  if (!driverPath) {
    try {
      driverPath = createRequire(path.join(process.cwd(), 'package.json')).resolve(
        'better-sqlite3',
      );
    } catch {
      return null;
    }
  }
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file: path.resolve(file), driverPath, intervalMs: options.intervalMs ?? 1000 },
  });
  worker.unref();
  sqlite.pragma('wal_autocheckpoint = 0');

  const pending = new Map<number, (reply: { result?: CheckpointResult; error?: string }) => void>();
  let nextId = 1;
  let running = true;
  const handBack = (reason: string | null) => {
    if (!running) return;
    running = false;
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
    for (const resolve of pending.values()) resolve({ error: 'The checkpoint worker stopped.' });
    pending.clear();
    if (reason)
      warn(`WAL checkpoint worker stopped (${reason}); the connection checkpoints again.`);
  };
  worker.on('message', (reply: { id: number; result?: CheckpointResult; error?: string }) => {
    pending.get(reply.id)?.(reply);
    pending.delete(reply.id);
  });
  worker.on('error', (error) => handBack(error.message));
  worker.on('exit', (code) => handBack(code === 0 ? null : `exit code ${code}`));

  return {
    checkpointNow() {
      if (!running) return Promise.reject(new Error('The checkpoint worker stopped.'));
      const id = nextId++;
      return new Promise<CheckpointResult>((resolve, reject) => {
        pending.set(id, (reply) => {
          if (reply.result) resolve(reply.result);
          else reject(new Error(reply.error ?? 'checkpoint failed'));
        });
        worker.postMessage({ type: 'now', id });
      });
    },
    async stop() {
      if (!running) return;
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage({ type: 'stop' });
      await exited;
      handBack(null);
    },
  };
}
