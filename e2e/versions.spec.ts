/**
 * File versions, in Chromium against the real server: a corpus PDF uploaded into a new folder,
 * then a different PDF under the same name, answered "Upload as new version" in the conflict
 * dialog; the file's side panel lists both versions (number, size, sha256, who, when); restoring
 * version 1 makes a third version whose bytes, downloaded from the folder's row, are the first
 * file's. A third upload under the name, answered "Keep both", is saved as "name (1).pdf".
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { formatSize } from '@common/format';
import { VERSION_MESSAGES } from '@common/versions';
import { settled } from './dialogs';
import { createFolder, openFolderLink } from './folders';
import { openDetailsFromRow } from './rowMenu';
import { signIn } from './session';

/** The shared corpus beside the checkout (E2E_CORPUS elsewhere, e.g. in a worktree). */
const CORPUS = process.env.E2E_CORPUS ?? path.resolve(import.meta.dirname, '../../shared/corpus');
/** The name every upload of the test uses. */
const NAME = 'minimal-document.pdf';
/** The first upload: the corpus file of that name. */
const FIRST = path.join(CORPUS, NAME);
/** The second upload: another corpus PDF, copied under the first one's name. */
const SECOND_SOURCE = path.join(CORPUS, 'pdflatex-4-pages.pdf');
/** The third upload (keep both): a third PDF under the same name. */
const THIRD_SOURCE = path.join(CORPUS, 'libreoffice-writer-password.pdf');

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

let workDir: string;

test.beforeAll(() => {
  workDir = mkdtempSync(path.join(os.tmpdir(), 'dossier-e2e-versions-'));
});

test.afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

test.use({ viewport: { width: 1400, height: 1600 } });

/** Creates a folder in the root and opens it. */
async function openNewFolder(page: Page, name: string): Promise<void> {
  await createFolder(page, name);
  await openFolderLink(page, name);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

/** The row of an item by its exact name. */
function row(page: Page, name: string): Locator {
  return page
    .getByTestId('entity-row')
    .filter({ has: page.getByRole('link', { name, exact: true }) });
}

/** `source` copied into a fresh subfolder `folder` of the work folder, under `NAME`. */
function underName(source: string, folder: string): string {
  const target = path.join(workDir, folder, NAME);
  mkdirSync(path.dirname(target), { recursive: true });
  copyFileSync(source, target);
  return target;
}

/** Picks `file` with the toolbar's file picker; the conflict dialog opens for its name. */
async function uploadConflicting(page: Page, file: string): Promise<Locator> {
  await page.getByLabel('Upload files').setInputFiles(file);
  const dialog = await settled(page.getByRole('dialog', { name: VERSION_MESSAGES.conflictTitle }));
  await expect(dialog).toContainText(`"${NAME}" already exists in this folder.`);
  return dialog;
}

/** The version list of the open side panel, once it shows `count` versions. */
async function versionList(panel: Locator, count: number): Promise<Locator> {
  const list = panel.getByRole('list', { name: 'Versions of this file' });
  await expect(list.getByRole('listitem')).toHaveCount(count, { timeout: 30_000 });
  return list;
}

/** Reopens the side panel until version `number` shows its sha256 (computed after the upload). */
async function expectVersionSha(page: Page, number: number, sha: string): Promise<void> {
  await expect(async () => {
    const panel = await openDetailsFromRow(page, NAME);
    const item = panel.getByRole('listitem', { name: `Version ${number}`, exact: true });
    await expect(item.locator('.version-sha-value')).toHaveAttribute('title', sha, {
      timeout: 3_000,
    });
  }).toPass({ timeout: 60_000 });
}

test('a new version from the conflict dialog, listed, restored; keep both numbers the name', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const firstBytes = readFileSync(FIRST);
  const secondBytes = readFileSync(SECOND_SOURCE);
  const firstSha = sha256(firstBytes);
  const secondSha = sha256(secondBytes);
  expect(secondSha).not.toBe(firstSha);

  await signIn(page);
  await openNewFolder(page, `Versions ${Date.now()}`);
  await page.getByLabel('Upload files').setInputFiles(FIRST);
  await expect(row(page, NAME)).toHaveCount(1, { timeout: 60_000 });

  // The same name again, other bytes: the dialog asks; "Upload as new version".
  const dialog = await uploadConflicting(page, underName(SECOND_SOURCE, 'second'));
  await dialog.getByRole('button', { name: VERSION_MESSAGES.uploadAsVersion }).click();
  await expect(dialog).toBeHidden();
  // Still one row of that name, now with the second file's size.
  await expect(row(page, NAME)).toHaveCount(1);
  await expect(row(page, NAME)).toContainText(formatSize(secondBytes.length), { timeout: 60_000 });

  // The side panel lists two versions, newest first, with size, sha256, who and when.
  await expectVersionSha(page, 2, secondSha);
  await expectVersionSha(page, 1, firstSha);
  const panel = page.getByTestId('details-panel');
  const list = await versionList(panel, 2);
  await expect(panel.getByRole('heading', { name: 'Versions (2)' })).toBeVisible();
  const items = list.getByRole('listitem');
  await expect(items.nth(0)).toHaveAccessibleName('Version 2');
  await expect(items.nth(1)).toHaveAccessibleName('Version 1');
  await expect(items.nth(0)).toContainText('Newest');
  for (const [item, bytes] of [
    [items.nth(0), secondBytes],
    [items.nth(1), firstBytes],
  ] as const) {
    const meta = item.locator('.version-meta');
    await expect(meta).toContainText(formatSize(bytes.length));
    await expect(meta).toContainText('Demo Administrator');
    await expect(meta.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
  }

  // Restore version 1: a third version, restored from 1, holding the first file's bytes.
  await list.getByRole('button', { name: 'Restore version 1 as newest' }).click();
  const after = await versionList(panel, 3);
  const newest = after.getByRole('listitem').nth(0);
  await expect(newest).toHaveAccessibleName('Version 3');
  await expect(newest).toContainText('restored from version 1');
  await expect(newest.locator('.version-meta')).toContainText(formatSize(firstBytes.length));
  await expectVersionSha(page, 3, firstSha);
  await panel.getByRole('button', { name: 'Close' }).first().click();
  await expect(panel).toBeHidden();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: `Download ${NAME}` }).click(),
  ]);
  expect(sha256(readFileSync(await download.path()))).toBe(firstSha);

  // A third upload under the name, "Keep both": saved as "minimal-document (1).pdf".
  const keep = await uploadConflicting(page, underName(THIRD_SOURCE, 'third'));
  await keep.getByRole('button', { name: VERSION_MESSAGES.keepBoth }).click();
  await expect(keep).toBeHidden();
  const numbered = 'minimal-document (1).pdf';
  await expect(row(page, numbered)).toHaveCount(1, { timeout: 60_000 });
  await expect(row(page, NAME)).toHaveCount(1);
  const [copy] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: `Download ${numbered}` }).click(),
  ]);
  expect(sha256(readFileSync(await copy.path()))).toBe(sha256(readFileSync(THIRD_SOURCE)));
  // The original keeps its three versions.
  const original = await openDetailsFromRow(page, NAME);
  await versionList(original, 3);
});
