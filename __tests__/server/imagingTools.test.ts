/**
 * Document imaging's child processes and tool probe: a tool runs with a time limit and its whole
 * process group is killed on the limit or on abort; a missing tool is named with its Debian
 * install command; administrators read the status page.
 */
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { installCommand, missingToolMessage } from '@common/imaging';
import type { ImagingStatusDto } from '@common/imaging';
import {
  runTool,
  ToolAbortedError,
  ToolMissingError,
  ToolTimeoutError,
  TOOL_NICENESS,
} from '@server/services/imaging/runner';
import { removeLibreOfficeProfiles } from '@server/services/imaging/office';
import { probeTools } from '@server/services/imaging/tools';
import { PermanentJobError } from '@server/services/imaging/worker';
import { describeEachDatabase, signIn, startTestServer, type TestServer } from './helpers';
import { ALL_TOOLS, itWithTools } from './imagingHelpers';

/** Whether a process id is alive (a zombie waiting to be reaped is not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** A node script that starts a grandchild sleeping 30 s, writes its pid to argv[1], sleeps too. */
const SPAWNS_GRANDCHILD = `
const { spawn } = require('node:child_process');
const { writeFileSync } = require('node:fs');
const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
writeFileSync(process.argv[1], String(child.pid));
setTimeout(() => {}, 30000);
`;

describe('runTool', () => {
  it('answers the exit code and output of a tool', async () => {
    const ok = await runTool(process.execPath, ['-e', 'console.log("hi"); console.error("warn")'], {
      timeoutMs: 10_000,
    });
    expect(ok).toEqual({ code: 0, stdout: 'hi\n', stderr: 'warn\n' });
    const failed = await runTool(process.execPath, ['-e', 'process.exit(3)'], {
      timeoutMs: 10_000,
    });
    expect(failed.code).toBe(3);
  });

  it('runs the tool, and the processes it starts, nicer than the server', async () => {
    // After a pause (the priority is set just after the start), the tool prints its niceness and
    // that of a process it starts then.
    const script = `setTimeout(() => {
      const { execFileSync } = require('node:child_process');
      const own = require('node:os').getPriority();
      const child = execFileSync(process.execPath, ['-e', 'console.log(require("node:os").getPriority())']);
      console.log(own + ' ' + String(child).trim());
    }, 500);`;
    const result = await runTool(process.execPath, ['-e', script], { timeoutMs: 20_000 });
    const expected = Math.min(19, os.getPriority() + TOOL_NICENESS);
    expect(result.stdout.trim()).toBe(`${expected} ${expected}`);
  });

  it('kills the whole process group past the time limit', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dossier-runner-'));
    const pidFile = path.join(dir, 'pid');
    const started = Date.now();
    const run = runTool(process.execPath, ['-e', SPAWNS_GRANDCHILD, pidFile], { timeoutMs: 1_500 });
    await expect(run).rejects.toBeInstanceOf(ToolTimeoutError);
    expect(Date.now() - started).toBeLessThan(8_000);
    const grandchild = Number(await readFile(pidFile, 'utf8'));
    expect(grandchild).toBeGreaterThan(0);
    for (let i = 0; i < 40 && alive(grandchild); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(alive(grandchild)).toBe(false);
    await rm(dir, { recursive: true, force: true });
  });

  it('kills the tool when the caller aborts', async () => {
    const abort = new AbortController();
    const run = runTool(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], {
      timeoutMs: 60_000,
      signal: abort.signal,
    });
    setTimeout(() => abort.abort(), 200);
    await expect(run).rejects.toBeInstanceOf(ToolAbortedError);
  });

  it('names a missing tool with the command that installs it, and gives up at once', async () => {
    const run = runTool('soffice', ['--version'], {
      timeoutMs: 5_000,
      env: { PATH: '/nonexistent' },
    });
    await expect(run).rejects.toBeInstanceOf(ToolMissingError);
    await expect(run).rejects.toBeInstanceOf(PermanentJobError);
    await expect(run).rejects.toThrow(
      'LibreOffice not found (needed for PDF renditions of office documents, HTML, SVG and other ' +
        'images): apt-get install -y libreoffice-writer-nogui libreoffice-calc-nogui ' +
        'libreoffice-impress-nogui libreoffice-draw-nogui',
    );
  });
});

describe('removeLibreOfficeProfiles', () => {
  it('removes the profiles of processes that no longer run and keeps those of live ones', async () => {
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'dossier-profiles-'));
    try {
      // A pid above the kernel's maximum (2^22) never runs.
      const dead = path.join(tmp, 'dossier-libreoffice-4194305-1');
      const live = path.join(tmp, `dossier-libreoffice-${process.ppid}-1`);
      const own = path.join(tmp, `dossier-libreoffice-${process.pid}-7`);
      const other = path.join(tmp, 'dossier-something-else');
      for (const dir of [dead, live, own, other])
        await mkdir(path.join(dir, 'user'), { recursive: true });
      expect(await removeLibreOfficeProfiles(tmp)).toBe(1);
      expect((await readdir(tmp)).sort()).toEqual(
        [path.basename(live), path.basename(own), path.basename(other)].sort(),
      );
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  });
});

describe('probeTools', () => {
  it('reports every tool missing, with its install command, on an empty PATH', async () => {
    const report = await probeTools(['eng'], '/nonexistent');
    expect(report.tools.map((tool) => [tool.command, tool.path, tool.install])).toEqual([
      ['soffice', null, expect.stringContaining('libreoffice-writer-nogui')],
      ['pdftotext', null, installCommand(['poppler-utils'])],
      ['pdftoppm', null, installCommand(['poppler-utils'])],
      ['ocrmypdf', null, installCommand(['ocrmypdf'])],
      ['tesseract', null, installCommand(['tesseract-ocr', 'tesseract-ocr-eng'])],
      ['ffmpeg', null, installCommand(['ffmpeg'])],
    ]);
    expect(missingToolMessage('ffmpeg')).toBe(
      'FFmpeg not found (needed for thumbnails of videos (a frame)): apt-get install -y ffmpeg',
    );
    expect(missingToolMessage('pdftotext')).toBe(
      'Poppler (pdftotext) not found (needed for the text layer of PDFs): apt-get install -y poppler-utils',
    );
  });

  itWithTools(ALL_TOOLS, 'finds the installed tools and names a missing OCR language', async () => {
    const report = await probeTools(['eng', 'xyz']);
    expect(report.tools.every((tool) => tool.path !== null && tool.install === null)).toBe(true);
    expect(report.missingLanguages).toEqual(['xyz']);
    expect(report.installLanguages).toBe('apt-get install -y tesseract-ocr-xyz');
  });
});

describeEachDatabase('imaging status page', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server.close();
  });

  it("shows administrators the tools and the firm's job counts", async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/api/rest/private/imaging/status',
      headers: { cookie: await signIn(server) },
    });
    expect(response.statusCode).toBe(200);
    const status = response.json<ImagingStatusDto>();
    expect(status.tools.map((tool) => tool.command)).toEqual(ALL_TOOLS);
    expect(status.jobs).toEqual({ queued: 0, running: 0, done: 0, failed: 0 });
    expect(status.concurrency).toBe(server.config.imagingConcurrency);
    expect(status.failed).toEqual([]);
  });
});
