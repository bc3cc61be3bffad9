/**
 * Replay end to end in Chromium against the real server: a folder gets a sub-folder and a file
 * (uploaded through the folder page), then the sub-folder is renamed and archived and the file
 * moved out (through the API). "View as of…" on the folder page opens its past at now; Previous,
 * Next and the arrow keys step through the timeline, each step highlighting what its event
 * changed ("Moved out" in the entry's details, "Archived", "Renamed", "Added" on the rows) with
 * the list as it was; a reload shows the same step (the address carries it); the case file
 * downloads as CSV and opens as a printable page; the page fits a 360 px phone; "Back to now"
 * returns to the folder's page.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { Page as ListPage } from '@common/api';
import type { EntityDto, FileDto } from '@common/entities';
import { REPLAY_CHANGE_LABELS } from '@common/replayViews';
import { openFolder, postFolder } from './folders';
import { signIn } from './session';

const CORPUS = path.resolve(import.meta.dirname, '../../shared/corpus');
const FILE_NAME = 'minimal-document.pdf';
/** Set E2E_SHOTS=1 to also save screenshots of the page under /tmp/replay-shots. */
const SHOTS = process.env.E2E_SHOTS ? '/tmp/replay-shots' : '';

/** Saves a full-page screenshot when E2E_SHOTS is set. */
async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

test.use({ viewport: { width: 1400, height: 1100 } });

/** The timeline's current entry. */
function currentEntry(page: Page): Locator {
  return page.getByRole('region', { name: 'Timeline' }).locator('button[aria-current="step"]');
}

/** The row of the replayed list that shows `name`. */
function replayRow(page: Page, name: string): Locator {
  return page.getByTestId('replay-row').filter({ hasText: name });
}

/** A change tag of a row. */
function changeTag(row: Locator, label: string): Locator {
  return row.locator('.replay-change-tag').filter({ hasText: label });
}

/** Sends a request through the page's session and expects it to succeed. */
async function expectOk(response: Promise<{ ok(): boolean; status(): number }>): Promise<void> {
  const answer = await response;
  expect(answer.ok(), `HTTP ${answer.status()}`).toBe(true);
}

test('steps a folder’s past event by event, survives a reload and returns to now', async ({
  page,
}) => {
  await signIn(page);
  const stamp = Date.now();
  const folder = await postFolder(page, `Replay ${stamp}`);
  const elsewhere = await postFolder(page, `Replay elsewhere ${stamp}`);
  const statements = await postFolder(page, 'Statements', folder.id);

  await openFolder(page, folder);
  await page.getByLabel('Upload files').setInputFiles(path.join(CORPUS, FILE_NAME));
  await expect(page.getByTestId('entity-row').filter({ hasText: FILE_NAME })).toBeVisible({
    timeout: 60_000,
  });
  const list = await page.request.get(`/api/rest/entities?folder_id=${folder.id}`);
  const file = ((await list.json()) as ListPage<EntityDto>).items.find(
    (item): item is FileDto => item.type === 'file',
  )!;

  await expectOk(
    page.request.patch(`/api/rest/folders/${statements.id}`, {
      data: { name: 'Statements 2024' },
    }),
  );
  await expectOk(page.request.post(`/api/rest/folders/${statements.id}/archive`));
  await expectOk(
    page.request.patch(`/api/rest/files/${file.id}`, { data: { parent_id: elsewhere.id } }),
  );

  // From the folder page: the folder now, after the move out.
  await openFolder(page, folder);
  await page.getByRole('button', { name: 'View as of…' }).click();
  await expect(page).toHaveURL(new RegExp(`/replay/${folder.id}$`));
  await expect(page.getByText(new RegExp(`^Viewing Replay ${stamp} as of `))).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: folder.name })).toBeVisible();
  await expect(currentEntry(page)).toContainText('moved file');
  await expect(page.getByRole('list', { name: 'What it changed' })).toContainText(
    `${FILE_NAME}: ${REPLAY_CHANGE_LABELS.moved_out}`,
  );
  await expect(page.getByTestId('replay-row')).toHaveCount(0);
  await expect(page.getByText('This folder was empty at this moment.')).toBeVisible();

  // ← : the archive. The archived folder shows on request, tagged.
  await page.keyboard.press('ArrowLeft');
  await expect(currentEntry(page)).toContainText('archived folder');
  await expect(page).toHaveURL(/event=/);
  await expect(replayRow(page, FILE_NAME)).toBeVisible();
  await expect(replayRow(page, 'Statements 2024')).toHaveCount(0);
  await page.getByRole('switch').click();
  await expect(page).toHaveURL(/archived=1/);
  const archivedRow = replayRow(page, 'Statements 2024');
  await expect(changeTag(archivedRow, REPLAY_CHANGE_LABELS.archived)).toBeVisible();
  await expect(archivedRow.getByText('In archive')).toBeVisible();
  await shot(page, 'archived');

  // Previous: the rename.
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(currentEntry(page)).toContainText('renamed folder');
  await expect(changeTag(replayRow(page, 'Statements 2024'), 'Renamed')).toBeVisible();
  await expect(replayRow(page, 'Statements 2024').getByText('In archive')).toHaveCount(0);
  await expect(changeTag(replayRow(page, FILE_NAME), 'Renamed')).toHaveCount(0);

  // ↑ : the upload, before the rename.
  await page.keyboard.press('ArrowUp');
  await expect(currentEntry(page)).toContainText(FILE_NAME);
  await expect(changeTag(replayRow(page, FILE_NAME), REPLAY_CHANGE_LABELS.added)).toBeVisible();
  await expect(replayRow(page, 'Statements')).toHaveText(/^Statements(?! 2024)/);
  const stepUrl = page.url();

  // A reload shows the same step.
  await page.reload();
  await expect(currentEntry(page)).toContainText(FILE_NAME);
  await expect(changeTag(replayRow(page, FILE_NAME), REPLAY_CHANGE_LABELS.added)).toBeVisible();
  expect(page.url()).toBe(stepUrl);

  // → and Next: back to the archive and the move.
  await page.keyboard.press('ArrowRight');
  await expect(currentEntry(page)).toContainText('renamed folder');
  await page.keyboard.press('ArrowDown');
  await expect(currentEntry(page)).toContainText('archived folder');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(currentEntry(page)).toContainText('moved file');
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();

  // The case file: its CSV, and the printable page.
  await page.getByRole('button', { name: 'Case file' }).click();
  const dialog = page.getByRole('dialog', { name: 'Case file' });
  await expect(dialog).toBeVisible();
  const downloading = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download CSV' }).click();
  const download = await downloading;
  const csv = readFileSync(await download.path(), 'utf8');
  expect(csv).toContain('Renamed');
  expect(csv).toContain(FILE_NAME);
  await page.getByRole('button', { name: 'Case file' }).click();
  await page
    .getByRole('dialog', { name: 'Case file' })
    .getByRole('button', { name: 'Printable page' })
    .click();
  await expect(page).toHaveURL(new RegExp(`/replay/${folder.id}/case-file\\?from=`));
  await expect(
    page.getByRole('heading', { level: 1, name: `Case file: ${folder.name}` }),
  ).toBeVisible();
  await expect(page.getByRole('table', { name: 'Events' })).toContainText('Statements 2024');
  await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();
  await shot(page, 'case-file');
  await page.goBack();

  // A phone: nothing scrolls sideways, the timeline goes under the list.
  await page.setViewportSize({ width: 360, height: 740 });
  await expect(currentEntry(page)).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await shot(page, 'phone');
  await page.getByRole('button', { name: 'Case file' }).click();
  await page.getByRole('dialog', { name: 'Case file' }).getByLabel('Period').first().click();
  await shot(page, 'phone-case-file');
  await page.keyboard.press('Escape');
  await page
    .getByRole('dialog', { name: 'Case file' })
    .getByRole('button', { name: 'Cancel' })
    .click();
  await expect(page.getByRole('dialog', { name: 'Case file' })).toBeHidden();
  await page.setViewportSize({ width: 1400, height: 1100 });

  await page.getByRole('button', { name: 'Back to now' }).click();
  await expect(page).toHaveURL(new RegExp(`/home/folders/${folder.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: folder.name })).toBeVisible();
});
