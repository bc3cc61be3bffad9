/**
 * Child processes of document imaging (docs/architecture.md "Document imaging"): a tool runs by
 * `spawn` with an argument list (never a shell string), in its own process group, with a time
 * limit. On the limit, or when the caller aborts (the worker stops), the whole group gets SIGTERM
 * and, if still there 2 s later, SIGKILL, so a hung LibreOffice and the helpers it started all go.
 * The event loop only waits for the process; output is collected up to a cap. Tools run at a
 * lower priority than the server ({@link TOOL_NICENESS}), so that a busy queue takes the CPU the
 * requests leave rather than slowing them down.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { missingToolMessage } from '@common/imaging';
import { PermanentJobError } from './worker';

/** Bytes of a tool's stdout and stderr kept (each); the rest is dropped. */
export const OUTPUT_CAP_BYTES = 64 * 1024;
/** Wait between SIGTERM and SIGKILL, in ms. */
export const KILL_GRACE_MS = 2_000;

/**
 * How much nicer than the server a tool runs (added to the server's niceness, at most 19): the
 * most there is, as for any batch work beside an interactive service (`nice -n 19`). At niceness
 * 10 a running recognition still took about a tenth of a core the requests wanted (CFS weight 110
 * against the server's 1024), at 19 about 1.5% (weight 15). Set on the process at once after it
 * starts; the processes it starts inherit it.
 */
export const TOOL_NICENESS = 19;

/** The niceness tools run at: the server's plus {@link TOOL_NICENESS}, at most 19. */
export function toolPriority(): number {
  return Math.min(19, os.getPriority() + TOOL_NICENESS);
}

/** How to run a tool. */
export interface RunOptions {
  /** Time limit in ms; the process group is killed past it. */
  timeoutMs: number;
  /** Aborting kills the process group. */
  signal?: AbortSignal;
  cwd?: string;
  /** Variables added to the server's environment. */
  env?: Record<string, string>;
}

/** What a finished tool run produced. */
export interface RunResult {
  /** The exit code (0: success). */
  code: number;
  /** The first OUTPUT_CAP_BYTES of stdout, as UTF-8. */
  stdout: string;
  /** The first OUTPUT_CAP_BYTES of stderr, as UTF-8. */
  stderr: string;
}

/** The tool is not installed (not on PATH): no retry helps until it is. */
export class ToolMissingError extends PermanentJobError {
  constructor(readonly command: string) {
    super(missingToolMessage(command));
  }
}

/** The tool ran past its time limit and was killed. */
export class ToolTimeoutError extends Error {
  constructor(
    readonly command: string,
    readonly timeoutMs: number,
  ) {
    super(`${command} did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped`);
  }
}

/** The run was aborted (the worker stopped) and the process killed. */
export class ToolAbortedError extends Error {
  constructor(readonly command: string) {
    super(`${command} was stopped`);
  }
}

/** Collects up to OUTPUT_CAP_BYTES of a stream. */
function collector() {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    add: (chunk: Buffer) => {
      if (size >= OUTPUT_CAP_BYTES) return;
      const part = chunk.subarray(0, OUTPUT_CAP_BYTES - size);
      chunks.push(part);
      size += part.length;
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
  };
}

/**
 * Runs `command` with `args` and resolves with its exit code and output, whatever the code.
 * @throws ToolMissingError when the command is not found, ToolTimeoutError past the limit,
 *   ToolAbortedError when `signal` aborted (in both cases the process group was killed)
 */
export function runTool(command: string, args: string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new ToolAbortedError(command));
      return;
    }
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: the kill reaches every process the tool started.
      detached: true,
    });
    if (child.pid !== undefined) {
      try {
        os.setPriority(child.pid, toolPriority());
      } catch {
        // The process has already ended (its exit is reported below).
      }
    }
    const stdout = collector();
    const stderr = collector();
    child.stdout.on('data', stdout.add);
    child.stderr.on('data', stderr.add);
    let ended: Error | null = null;
    let forceTimer: NodeJS.Timeout | null = null;
    const killGroup = (signal: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group is gone already.
      }
    };
    const stop = (reason: Error) => {
      if (ended) return;
      ended = reason;
      killGroup('SIGTERM');
      forceTimer = setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS);
      forceTimer.unref();
    };
    const limit = setTimeout(
      () => stop(new ToolTimeoutError(command, options.timeoutMs)),
      options.timeoutMs,
    );
    const onAbort = () => stop(new ToolAbortedError(command));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = () => {
      clearTimeout(limit);
      options.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (error: NodeJS.ErrnoException) => {
      finish();
      if (forceTimer) clearTimeout(forceTimer);
      reject(error.code === 'ENOENT' ? new ToolMissingError(command) : error);
    });
    child.on('close', (code, signal) => {
      finish();
      // Whatever the tool left running in its group goes too.
      if (forceTimer) {
        clearTimeout(forceTimer);
        killGroup('SIGKILL');
      }
      if (ended) {
        reject(ended);
        return;
      }
      resolve({ code: code ?? (signal ? 128 : 1), stdout: stdout.text(), stderr: stderr.text() });
    });
  });
}

/**
 * The last lines of a tool's error output, for a job's reason (at most `max` characters).
 */
export function errorTail(text: string, max = 500): string {
  const trimmed = text.trim();
  return trimmed.length <= max ? trimmed : `…${trimmed.slice(-max)}`;
}
