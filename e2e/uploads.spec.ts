/**
 * Uploads that never lose a file, in Chromium against the real server:
 * - the corpus plus a generated 60 MB file (multipart), with a page reload half-way through the
 *   large file: it resumes from the parts already stored and the downloaded bytes are identical;
 * - going offline in the middle shows "No Internet connection." and the upload finishes once the
 *   browser is back online;
 * - a dropped folder is refused; the same file twice in one drop gives the duplicate message.
 * The network is throttled through the Chrome DevTools Protocol so "half-way" lasts long enough.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type CDPSession, type Page, type Request } from '@playwright/test';
import { duplicateMessage } from '@common/files';
import { MESSAGES } from '@common/messages';
import type { UploadRestrictions } from '@common/uploads';
import { createFolder, openFolderLink } from './folders';
import { signIn } from './session';

/** The shared corpus beside the checkout. */
const CORPUS = path.resolve(import.meta.dirname, '../../shared/corpus');
const corpusFiles = readdirSync(CORPUS)
  .filter((name) => !['SHA256SUMS', 'SOURCES.md'].includes(name))
  .sort();
const MiB = 1024 * 1024;

let workDir: string;
let bigFile: string;
let bigSha: string;
let mediumFile: string;
let mediumSha: string;

/** Writes `size` random bytes to `file` (in 1 MiB chunks) and answers their sha256. */
function generate(file: string, size: number): string {
  const hash = createHash('sha256');
  const fd = openSync(file, 'w');
  try {
    for (let written = 0; written < size; written += MiB) {
      const chunk = randomBytes(Math.min(MiB, size - written));
      hash.update(chunk);
      writeSync(fd, chunk);
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

test.beforeAll(() => {
  workDir = mkdtempSync(path.join(os.tmpdir(), 'dossier-e2e-uploads-'));
  bigFile = path.join(workDir, 'Large statement.bin');
  bigSha = generate(bigFile, 60 * MiB);
  mediumFile = path.join(workDir, 'Offline contract.bin');
  mediumSha = generate(mediumFile, 24 * MiB);
});

test.afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

test.use({ viewport: { width: 1400, height: 1600 } });

/** Creates a folder in the root and opens it. */
async function openNewFolder(page: Page, name: string): Promise<void> {
  await createFolder(page, name);
  await openFolderLink(page, name);
  // The URL changes before the folder's page renders; until then its toolbar uploads to the root.
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

/** Limits the page's upload bandwidth (bytes per second); 0 lifts the limit. */
async function throttle(cdp: CDPSession, uploadBytesPerSecond: number): Promise<void> {
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: uploadBytesPerSecond > 0 ? uploadBytesPerSecond : -1,
  });
}

/** The upload panel's row of a file. */
const uploadRow = (page: Page, name: string) =>
  page.locator(`[data-testid="upload-row"][data-name="${name}"]`);

/** The percentage a row shows ("Uploading… 42%"), or -1. */
async function rowPercent(page: Page, name: string): Promise<number> {
  const text = (await uploadRow(page, name).textContent()) ?? '';
  const match = /(\d+)%/.exec(text);
  return match ? Number(match[1]) : -1;
}

/** Downloads a listed file and answers the sha256 of its bytes. */
async function downloadSha(page: Page, name: string): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: `Download ${name}` }).click(),
  ]);
  return sha256(readFileSync(await download.path()));
}

/** Part uploads to the local store seen by the page (PUT …?uploadId…&partNumber…). */
function isPartPut(request: Request): boolean {
  return (
    request.method() === 'PUT' &&
    request.url().includes('/api/storage/objects/') &&
    request.url().includes('partNumber=')
  );
}

test('uploads the corpus and a 60 MB file by multipart, resuming after a reload half-way', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signIn(page);
  await openNewFolder(page, `Resume ${Date.now()}`);
  const cdp = await page.context().newCDPSession(page);
  await throttle(cdp, 3 * MiB);

  const partsBefore: number[] = [];
  page.on('request', (request) => {
    if (isPartPut(request))
      partsBefore.push(Number(new URL(request.url()).searchParams.get('partNumber')));
  });
  await page
    .getByLabel('Upload files')
    .setInputFiles([...corpusFiles.map((name) => path.join(CORPUS, name)), bigFile]);
  const bigName = path.basename(bigFile);
  await expect(uploadRow(page, bigName)).toBeVisible();
  // Half-way through the large file, reload the page.
  await expect
    .poll(() => rowPercent(page, bigName), { timeout: 90_000 })
    .toBeGreaterThanOrEqual(40);
  const partsSentBeforeReload = new Set(partsBefore).size;
  page.removeAllListeners('request');
  const partsAfter: number[] = [];
  page.on('request', (request) => {
    if (isPartPut(request))
      partsAfter.push(Number(new URL(request.url()).searchParams.get('partNumber')));
  });
  await page.reload();
  await throttle(await page.context().newCDPSession(page), 0);

  // The large file comes back in the panel and finishes from where it stopped.
  await expect(uploadRow(page, bigName)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('entity-row').filter({ hasText: bigName })).toHaveCount(1, {
    timeout: 120_000,
  });
  await expect(uploadRow(page, bigName)).toHaveAttribute('data-status', 'complete');
  const restrictions = (await (
    await page.request.get('/api/rest/files/restrictions')
  ).json()) as UploadRestrictions;
  const totalParts = Math.ceil((60 * MiB) / restrictions.part_size);
  expect(partsSentBeforeReload).toBeGreaterThan(0);
  // Some parts went after the reload (else the checks below would pass on an empty list), and
  // fewer than all, none of them the first.
  expect(partsAfter.length).toBeGreaterThan(0);
  expect(new Set(partsAfter).size).toBeLessThan(totalParts);
  expect(Math.min(...partsAfter)).toBeGreaterThan(1);
  expect(await downloadSha(page, bigName)).toBe(bigSha);

  // Every corpus file is there too, with identical bytes for a sample.
  for (const name of corpusFiles) {
    await expect(page.getByTestId('entity-row').filter({ hasText: name })).toHaveCount(1, {
      timeout: 30_000,
    });
  }
  for (const name of ['test.docx', 'pdflatex-4-pages.pdf']) {
    expect(await downloadSha(page, name)).toBe(sha256(readFileSync(path.join(CORPUS, name))));
  }
});

test('going offline in the middle shows the spec message; the upload finishes back online', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  await signIn(page);
  await openNewFolder(page, `Offline ${Date.now()}`);
  const cdp = await page.context().newCDPSession(page);
  await throttle(cdp, 2 * MiB);
  const name = path.basename(mediumFile);
  await page.getByLabel('Upload files').setInputFiles(mediumFile);
  await expect.poll(() => rowPercent(page, name), { timeout: 60_000 }).toBeGreaterThanOrEqual(25);

  await context.setOffline(true);
  await expect(page.getByTestId('upload-offline')).toContainText(MESSAGES.noInternet);
  await expect(uploadRow(page, name)).toHaveAttribute('data-status', /waiting|uploading/);
  // Nothing fails while offline: no "Failed to upload" appears.
  await page.waitForTimeout(3_000);
  await expect(uploadRow(page, name)).not.toHaveAttribute('data-status', 'failed');
  const percentOffline = await rowPercent(page, name);
  expect(percentOffline).toBeGreaterThanOrEqual(20);

  await context.setOffline(false);
  await throttle(cdp, 0);
  await expect(page.getByTestId('upload-offline')).toHaveCount(0);
  await expect(page.getByTestId('entity-row').filter({ hasText: name })).toHaveCount(1, {
    timeout: 90_000,
  });
  await expect(uploadRow(page, name)).toHaveAttribute('data-status', 'complete');
  expect(await downloadSha(page, name)).toBe(mediumSha);
});

test('a dropped folder is refused; the same file twice in one drop is a duplicate', async ({
  page,
}) => {
  await signIn(page);
  await openNewFolder(page, `Drops ${Date.now()}`);

  // A real folder dropped from the desktop (Chrome DevTools Protocol drag with a directory path).
  const folder = path.join(workDir, 'Client statements');
  mkdirSync(folder, { recursive: true });
  writeSync(openSync(path.join(folder, 'inside.pdf'), 'w'), 'pdf');
  const zone = page.getByTestId('folder-drop-zone');
  const box = (await zone.boundingBox())!;
  const at = { x: box.x + box.width / 2, y: box.y + Math.min(box.height / 2, 300) };
  const cdp = await page.context().newCDPSession(page);
  const data = { items: [], files: [folder], dragOperationsMask: 1 };
  for (const type of ['dragEnter', 'dragOver', 'drop'] as const) {
    await cdp.send('Input.dispatchDragEvent', { type, ...at, data });
  }
  const refused = uploadRow(page, 'Client statements');
  await expect(refused).toHaveAttribute('data-status', 'invalid');
  await expect(refused).toContainText('Client statements is a folder. Only files can be uploaded.');

  // The same file twice in one drop: the second is refused with the spec's message.
  const bytes = readFileSync(path.join(CORPUS, 'minimal-document.pdf')).toString('base64');
  const transfer = await page.evaluateHandle((base64) => {
    const transfer = new DataTransfer();
    const body = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const when = Date.now();
    for (let i = 0; i < 2; i += 1) {
      transfer.items.add(new File([body], 'Engagement letter.pdf', { lastModified: when }));
    }
    return transfer;
  }, bytes);
  await zone.dispatchEvent('dragenter', { dataTransfer: transfer });
  await zone.dispatchEvent('dragover', { dataTransfer: transfer });
  await zone.dispatchEvent('drop', { dataTransfer: transfer });
  const rows = uploadRow(page, 'Engagement letter.pdf');
  await expect(rows).toHaveCount(2);
  // The refusals come first, in their own section.
  await expect(rows.first()).toHaveAttribute('data-status', 'invalid');
  await expect(rows.first()).toContainText(duplicateMessage('Engagement letter.pdf'));
  await expect(page.getByTestId('upload-refusals')).toContainText('Client statements');
  await expect(page.getByTestId('upload-panel')).toContainText('2 files not added');
  await expect(
    page.getByTestId('entity-row').filter({ hasText: 'Engagement letter.pdf' }),
  ).toHaveCount(1);
  await expect(rows.nth(1)).toHaveAttribute('data-status', 'complete');
});

test('a batch interrupted by leaving the folder ends with every picked file exactly once', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signIn(page);
  const folderName = `Interrupted ${Date.now()}`;
  await openNewFolder(page, folderName);
  const folderUrl = page.url();
  const folderId = folderUrl.split('/').pop()!;
  const batchDir = path.join(workDir, 'batch');
  mkdirSync(batchDir, { recursive: true });
  const names = Array.from(
    { length: 30 },
    (_, i) => `Statement ${String(i + 1).padStart(2, '0')}.bin`,
  );
  for (const name of names) generate(path.join(batchDir, name), 512 * 1024);
  /** The names of the files in the folder, from the API (the list page shows a window of them). */
  const namesInFolder = async (): Promise<string[]> => {
    const reply = await page.request.get(`/api/rest/entities?folder_id=${folderId}&page_size=500`);
    const body = (await reply.json()) as { items: { name: string; type?: string }[] };
    return body.items.map((item) => item.name).sort();
  };
  // The page asks before leaving while uploads run: the user confirms.
  page.on('dialog', (dialog) => void dialog.accept());
  // Each store write waits 1.5 s, as on a slow connection, so that the batch is still on its way
  // when the user leaves (on loopback 30 files of 512 KiB could all arrive before the first
  // navigation, and the test would prove nothing).
  await page.route('**/api/storage/objects/**', async (route) => {
    if (route.request().method() === 'PUT') await new Promise((done) => setTimeout(done, 1_500));
    // The page may have navigated away meanwhile: its request is gone, which is the point.
    await route.continue().catch(() => undefined);
  });
  await page
    .getByLabel('Upload files')
    .setInputFiles(names.map((name) => path.join(batchDir, name)));
  // Leave while some files are recorded and others are on their way: a full navigation to
  // another page of the app, then back to the folder.
  await expect(page.getByTestId('entity-row').first()).toBeVisible({ timeout: 60_000 });
  await page.waitForTimeout(1_000);
  await page.goto('/history');
  expect((await namesInFolder()).length).toBeLessThan(30);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await page.goto(folderUrl);
  await expect(page.getByRole('heading', { level: 1, name: folderName })).toBeVisible();

  // Every picked file ends as exactly one file (no "(1)" copy), and the panel shows the files it
  // found again complete, none failed.
  await expect
    .poll(async () => (await namesInFolder()).length, { timeout: 120_000 })
    .toBeGreaterThanOrEqual(30);
  const panelRows = page.locator('[data-testid="upload-row"]');
  await expect(panelRows.first()).toBeVisible();
  await expect(
    page.locator('[data-testid="upload-row"]:not([data-status="complete"])'),
  ).toHaveCount(0, { timeout: 30_000 });
  // Nothing more arrives late.
  await page.waitForTimeout(3_000);
  expect(await namesInFolder()).toEqual(names);
});

/**
 * The list's Modified cells and row actions that the upload panel covers: each cell's box is
 * clipped by its scrolling ancestors and the window (what is on screen), then met with the panel's.
 */
function coveredCells(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const panel = document.querySelector('[data-testid="upload-panel"]')!.getBoundingClientRect();
    const covered: string[] = [];
    const cells = document.querySelectorAll(
      '[data-testid="entity-row"] .entity-cell-date, [data-testid="entity-row"] .entity-cell-actions',
    );
    for (const cell of cells) {
      const box = cell.getBoundingClientRect();
      let [top, bottom, left, right] = [box.top, box.bottom, box.left, box.right];
      for (let up = cell.parentElement; up; up = up.parentElement) {
        const style = getComputedStyle(up);
        if (!/auto|scroll|hidden|clip/.test(`${style.overflowX} ${style.overflowY}`)) continue;
        const clip = up.getBoundingClientRect();
        top = Math.max(top, clip.top);
        bottom = Math.min(bottom, clip.bottom);
        left = Math.max(left, clip.left);
        right = Math.min(right, clip.right);
      }
      top = Math.max(top, 0);
      bottom = Math.min(bottom, window.innerHeight);
      if (bottom <= top || right <= left) continue;
      const apart =
        right <= panel.left || panel.right <= left || bottom <= panel.top || panel.bottom <= top;
      const row = cell.closest('[data-testid="entity-row"]');
      if (!apart) covered.push(`${row?.textContent ?? ''}: ${cell.className}`);
    }
    return covered;
  });
}

test('the upload panel, open or minimised, covers no row of the list, also at 390 px', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await signIn(page);
  await openNewFolder(page, `Panel room ${Date.now()}`);
  const dir = path.join(workDir, 'room');
  mkdirSync(dir, { recursive: true });
  const names = Array.from({ length: 24 }, (_, i) => `Note ${String(i + 1).padStart(2, '0')}.txt`);
  for (const name of names) writeSync(openSync(path.join(dir, name), 'w'), name);
  await page.getByLabel('Upload files').setInputFiles(names.map((name) => path.join(dir, name)));
  await expect(page.getByTestId('entity-row')).not.toHaveCount(0);
  const panel = page.getByTestId('upload-panel');
  await expect(panel).toContainText(`${names.length} of ${names.length} files uploaded`, {
    timeout: 60_000,
  });
  await expect(panel).toHaveAttribute('data-panel', 'open');
  // The list ends above the panel: scrolled to its end, the last row is clear of it too.
  expect(await coveredCells(page)).toEqual([]);
  await page.getByTestId('entity-row').last().scrollIntoViewIfNeeded();
  expect(await coveredCells(page)).toEqual([]);

  await page.getByRole('button', { name: 'Minimize uploads' }).click();
  await expect(panel).toHaveAttribute('data-panel', 'minimized');
  expect((await panel.boundingBox())!.height).toBeLessThanOrEqual(48);
  expect(await coveredCells(page)).toEqual([]);

  // A phone: the open panel is a full-width bottom sheet, and still covers no row.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Show uploads' }).click();
  await expect(panel).toHaveAttribute('data-panel', 'open');
  const sheet = (await panel.boundingBox())!;
  expect(sheet.x).toBe(0);
  expect(sheet.width).toBe(390);
  expect(Math.round(sheet.y + sheet.height)).toBe(844);
  expect(await coveredCells(page)).toEqual([]);
});
