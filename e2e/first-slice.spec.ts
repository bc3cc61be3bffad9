/**
 * The first working slice, as a new user would use it: sign in, create a folder, upload every file
 * of ../shared/corpus (some by the file picker, some by drag-and-drop), see icons and sizes, download
 * two and compare sha256, preview a PDF and play a video in the viewer, download an archive by its
 * name (it has no preview), find the events on the History page, sign out.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { fileKind } from '@common/files';
import { formatSize } from '@common/format';
import { MESSAGES } from '@common/messages';
import { splitFileName } from '@common/names';
import { createFolder, openFolderLink } from './folders';
import { signIn } from './session';

const CORPUS = path.resolve(import.meta.dirname, '../../shared/corpus');
const corpusFiles = readdirSync(CORPUS)
  .filter((name) => !['SHA256SUMS', 'SOURCES.md'].includes(name))
  .sort();
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

test.use({ viewport: { width: 1400, height: 2200 } });

/** Drops files on the folder view the way a browser does: a DataTransfer with File objects. */
async function dropFiles(page: Page, names: string[]): Promise<void> {
  const payload = names.map((name) => ({
    name,
    base64: readFileSync(path.join(CORPUS, name)).toString('base64'),
  }));
  const dataTransfer = await page.evaluateHandle((files) => {
    const transfer = new DataTransfer();
    for (const file of files) {
      const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
      transfer.items.add(new File([bytes], file.name));
    }
    return transfer;
  }, payload);
  const zone = page.getByTestId('folder-drop-zone');
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await zone.dispatchEvent('dragover', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
}

test('sign in, organise, upload, read, see history, sign out', async ({ page }) => {
  await signIn(page);
  await expect(page).toHaveTitle('Dossier');
  await expect(page.getByRole('link', { name: 'Home' }).first()).toHaveAttribute(
    'aria-current',
    'page',
  );

  // Create a folder and open it; the deep link survives a reload.
  const folderName = `Client ${Date.now()}`;
  await createFolder(page, folderName);
  await openFolderLink(page, folderName);
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Folder path' })).toContainText(folderName);

  // Upload the corpus: half by the file picker, half by drag-and-drop.
  const half = Math.ceil(corpusFiles.length / 2);
  const picked = corpusFiles.slice(0, half);
  const dropped = corpusFiles.slice(half);
  await page
    .getByLabel('Upload files')
    .setInputFiles(picked.map((name) => path.join(CORPUS, name)));
  await expect(page.getByTestId('entity-row')).toHaveCount(picked.length, { timeout: 60_000 });
  await dropFiles(page, dropped);
  await expect(page.getByTestId('entity-row')).toHaveCount(corpusFiles.length, { timeout: 60_000 });

  // Every file is listed with its icon kind and its size in the spec's format.
  for (const name of corpusFiles) {
    const row = page.getByTestId('entity-row').filter({ hasText: name });
    await expect(row).toHaveCount(1);
    const kind = fileKind({ type: 'file', extension: splitFileName(name).extension });
    await expect(row.locator('[data-kind]')).toHaveAttribute('data-kind', kind);
    await expect(row).toContainText(formatSize(readFileSync(path.join(CORPUS, name)).length));
  }

  // The upload panel stays open (the list ends above it) until the user minimises it.
  await page.getByRole('button', { name: 'Minimize uploads' }).click();

  // Download two files and compare their bytes with the originals.
  for (const name of ['test.docx', 'smile.tiff']) {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: `Download ${name}` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(name);
    const saved = await download.path();
    expect(sha256(readFileSync(saved))).toBe(sha256(readFileSync(path.join(CORPUS, name))));
  }

  // Preview a PDF: the viewer opens over the folder and reads the PDF served inline.
  const [pdfResponse] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/preview') && r.request().method() === 'GET'),
    page.getByRole('button', { name: 'Preview minimal-document.pdf' }).click(),
  ]);
  expect(pdfResponse.status()).toBe(200);
  expect(pdfResponse.headers()['content-type']).toBe('application/pdf');
  expect(pdfResponse.headers()['content-disposition']).toMatch(/^inline/);
  const pdfViewer = page.getByRole('dialog', { name: 'minimal-document.pdf' });
  await expect(pdfViewer.getByTestId('viewer-page-count')).toHaveText('Page 1 of 1');
  await page.keyboard.press('Escape');
  await expect(pdfViewer).toBeHidden();

  // A video plays in the viewer, in the browser's own player.
  await page.getByRole('button', { name: 'Preview small-mp4-with-audio.mp4' }).click();
  const player = page.getByRole('dialog', { name: 'small-mp4-with-audio.mp4' });
  await expect
    .poll(() => player.locator('video').evaluate((video: HTMLVideoElement) => video.readyState))
    .toBeGreaterThanOrEqual(1);
  await page.keyboard.press('Escape');
  await expect(player).toBeHidden();

  // A Word document opens in the viewer too (its PDF rendition); a tar archive has no preview:
  // no Preview, and its name downloads it.
  await expect(page.getByRole('button', { name: 'Preview test.docx' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Preview small-tar.tar' })).toBeDisabled();
  const [named] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'small-tar.tar', exact: true }).click(),
  ]);
  expect(named.suggestedFilename()).toBe('small-tar.tar');

  // A file named with a character outside ISO-8859-1 is refused with the spec's message.
  await page.getByLabel('Upload files').setInputFiles({
    name: 'Отчёт.pdf',
    mimeType: 'application/pdf',
    buffer: readFileSync(path.join(CORPUS, 'minimal-document.pdf')),
  });
  await expect(page.getByText(MESSAGES.invalidFileName)).toBeVisible();
  await expect(page.getByTestId('entity-row')).toHaveCount(corpusFiles.length);

  // The History page shows what happened, newest first (the finished uploads' panel closed).
  await page.getByRole('button', { name: 'Close uploads' }).click();
  await page.getByRole('link', { name: 'History' }).click();
  await expect(page).toHaveURL(/\/history$/);
  const rows = page.getByTestId('history-row');
  // The firm's history is shared with the specs running beside this one: an event about this
  // test's folder is looked for with the folder's name (downloads and previews name only the
  // file), and the list is scrolled on (it reads the next page at its end) until it is rendered.
  const expectRow = async (text: string, about: 'folder' | 'file' = 'folder') => {
    const matching = rows.filter({ hasText: text });
    const found = about === 'folder' ? matching.filter({ hasText: folderName }) : matching;
    const shown = (timeout: number) =>
      about === 'folder'
        ? expect(found).toHaveCount(1, { timeout })
        : expect(found.first()).toBeAttached({ timeout });
    // First where the list is (the page may still be loading: scrolling then would pass it by).
    if (
      await shown(5_000).then(
        () => true,
        () => false,
      )
    )
      return;
    await expect(async () => {
      if ((await found.count()) === 0) await rows.last().scrollIntoViewIfNeeded();
      await shown(1_000);
    }).toPass({ timeout: 30_000 });
  };
  // Newest first, as the list runs (a row scrolled past is no longer rendered).
  await expectRow('downloaded file "small-tar.tar"', 'file');
  await expectRow('previewed file "small-mp4-with-audio.mp4"', 'file');
  await expectRow('previewed file "minimal-document.pdf"', 'file');
  await expectRow('downloaded file "test.docx"', 'file');
  await expectRow('added file "minimal-document.pdf"');
  await expectRow(`added folder "${folderName}"`);
  // The sign-in is the oldest entry: the list (which ends above the open upload panel) is
  // scrolled to its end until it is rendered.
  await expect(async () => {
    await rows.last().scrollIntoViewIfNeeded();
    await expect(rows.filter({ hasText: 'logged in' }).first()).toBeVisible({ timeout: 1_000 });
  }).toPass();

  // Sign out: the sign-in page is shown and the app is no longer reachable.
  await page.getByRole('link', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await page.goto('/home');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  const api = await page.request.get('/api/auth/current-user');
  expect(api.status()).toBe(401);
});

test('a signed-out page load logs no console error and makes no failing call', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  for (const address of ['/', '/home', '/login']) {
    await page.goto(address);
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  }
  expect(problems).toEqual([]);
});

test('a wrong password is refused with a clear message', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill('wrong password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(MESSAGES.invalidCredentials)).toBeVisible();
});
