/**
 * Uploads to the S3 object store, in Chromium against a server with OBJECT_STORE=s3 on
 * OpenStack Swift behind a CORS-adding proxy (the `s3` project of playwright.config.ts): a small
 * PDF goes by one presigned PUT, a 40 MB file by multipart with a page reload half-way (it resumes
 * from the parts S3 lists), and the bytes come back identical through the app's preview and
 * download routes, which stream from S3.
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type CDPSession, type Page, type Request } from '@playwright/test';
import type { UploadRestrictions } from '@common/uploads';
import { createFolder } from './folders';
import { signIn } from './session';

const CORPUS = path.resolve(import.meta.dirname, '../../shared/corpus');
const MiB = 1024 * 1024;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

let workDir: string;
let bigFile: string;
let bigSha: string;

test.beforeAll(() => {
  workDir = mkdtempSync(path.join(os.tmpdir(), 'dossier-e2e-s3-'));
  bigFile = path.join(workDir, 'Annual report.bin');
  const hash = createHash('sha256');
  const fd = openSync(bigFile, 'w');
  for (let written = 0; written < 40 * MiB; written += MiB) {
    const chunk = randomBytes(MiB);
    hash.update(chunk);
    writeSync(fd, chunk);
  }
  closeSync(fd);
  bigSha = hash.digest('hex');
});

test.afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

test.use({ viewport: { width: 1400, height: 1600 } });

async function throttle(cdp: CDPSession, uploadBytesPerSecond: number): Promise<void> {
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: uploadBytesPerSecond > 0 ? uploadBytesPerSecond : -1,
  });
}

const uploadRow = (page: Page, name: string) =>
  page.locator(`[data-testid="upload-row"][data-name="${name}"]`);

async function rowPercent(page: Page, name: string): Promise<number> {
  const text = (await uploadRow(page, name).textContent()) ?? '';
  const match = /(\d+)%/.exec(text);
  return match ? Number(match[1]) : -1;
}

/** A part upload sent straight to S3 (through the CORS proxy), not to the app. */
function isS3PartPut(page: Page, request: Request): boolean {
  const url = new URL(request.url());
  return (
    request.method() === 'PUT' &&
    url.origin !== new URL(page.url()).origin &&
    url.searchParams.has('partNumber')
  );
}

test('uploads to S3 by single PUT and by multipart resumed after a reload; reads back the bytes', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signIn(page);
  const folderName = `S3 ${Date.now()}`;
  await createFolder(page, folderName);
  await page.getByRole('link', { name: folderName, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: folderName })).toBeVisible();
  const folderId = page.url().split('/').pop()!;

  const restrictions = (await (
    await page.request.get('/api/rest/files/restrictions')
  ).json()) as UploadRestrictions;
  expect(40 * MiB).toBeGreaterThanOrEqual(restrictions.multipart_threshold);

  const storeRequests: string[] = [];
  const partsBefore: number[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).origin !== new URL(page.url()).origin) {
      storeRequests.push(`${request.method()} ${new URL(request.url()).pathname}`);
    }
    if (isS3PartPut(page, request))
      partsBefore.push(Number(new URL(request.url()).searchParams.get('partNumber')));
  });
  const cdp = await page.context().newCDPSession(page);
  await throttle(cdp, 3 * MiB);
  const small = path.join(CORPUS, 'pdflatex-4-pages.pdf');
  await page.getByLabel('Upload files').setInputFiles([small, bigFile]);
  const bigName = path.basename(bigFile);
  await expect
    .poll(() => rowPercent(page, bigName), { timeout: 90_000 })
    .toBeGreaterThanOrEqual(40);
  const partsSentBeforeReload = new Set(partsBefore).size;
  // The small file went by one PUT to the bucket's staging key, not through the app.
  expect(storeRequests.some((r) => /^PUT \/dossier\/staging\//.test(r))).toBe(true);

  page.removeAllListeners('request');
  const partsAfter: number[] = [];
  page.on('request', (request) => {
    if (isS3PartPut(page, request))
      partsAfter.push(Number(new URL(request.url()).searchParams.get('partNumber')));
  });
  await page.reload();
  await throttle(await page.context().newCDPSession(page), 0);
  await expect(uploadRow(page, bigName)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('entity-row').filter({ hasText: bigName })).toHaveCount(1, {
    timeout: 120_000,
  });
  await expect(
    page.getByTestId('entity-row').filter({ hasText: 'pdflatex-4-pages.pdf' }),
  ).toHaveCount(1);
  const totalParts = Math.ceil((40 * MiB) / restrictions.part_size);
  expect(partsSentBeforeReload).toBeGreaterThan(0);
  expect(partsAfter.length).toBeGreaterThan(0);
  expect(new Set(partsAfter).size).toBeLessThan(totalParts);
  expect(Math.min(...partsAfter)).toBeGreaterThan(1);

  // Download the large file through the page: identical bytes.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: `Download ${bigName}` }).click(),
  ]);
  expect(sha256(readFileSync(await download.path()))).toBe(bigSha);

  // Preview the PDF (the app streams it from S3 with its own headers), whole and one range.
  const listing = (await (
    await page.request.get(`/api/rest/entities?folder_id=${folderId}&page_size=50`)
  ).json()) as { items: { id: string; name: string }[] };
  const pdf = listing.items.find((item) => item.name === 'pdflatex-4-pages.pdf')!;
  const preview = await page.request.get(`/api/rest/files/${pdf.id}/preview`);
  expect(preview.status()).toBe(200);
  expect(preview.headers()['content-type']).toContain('application/pdf');
  expect(preview.headers()['x-content-type-options']).toBe('nosniff');
  const original = readFileSync(small);
  expect(sha256(await preview.body())).toBe(sha256(original));
  const ranged = await page.request.get(`/api/rest/files/${pdf.id}/preview`, {
    headers: { range: 'bytes=100-199' },
  });
  expect(ranged.status()).toBe(206);
  expect((await ranged.body()).equals(original.subarray(100, 200))).toBe(true);
});
