/**
 * Records management in Chromium against the real server: an administrator archives an uploaded
 * corpus file, places a legal hold on its folder from Admin → Legal holds (the folder chosen in the
 * folder chooser), tries to delete the file permanently from the Archive and sees the refusal
 * naming the hold, releases the hold (after its confirmation), and then the deletion goes through;
 * and a single file added to a hold from its side panel cannot even be archived.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { RECORDS_MESSAGES, recordsMessage } from '@common/retention';
import type { Page as ListPage } from '@common/api';
import type { EntityDto, FileDto, FolderDto } from '@common/entities';
import { settled } from './dialogs';
import { signIn } from './session';
import { postFolder } from './folders';
import { openDetailsFromRow } from './rowMenu';

/** The shared corpus, next to the repository (or next to its worktrees' folder). */
const CORPUS =
  ['../../shared/corpus', '../../../shared/corpus']
    .map((relative) => path.resolve(import.meta.dirname, relative))
    .find((dir) => existsSync(dir)) ?? path.resolve(import.meta.dirname, '../../shared/corpus');

test.use({ viewport: { width: 1400, height: 1100 } });

/** Uploads one corpus file into a folder through its page's file picker; answers the file. */
async function upload(page: Page, folder: FolderDto, name: string): Promise<FileDto> {
  await page.goto(`/home/folders/${folder.id}`);
  await expect(page.getByRole('heading', { level: 1, name: folder.name })).toBeVisible();
  await page.getByLabel('Upload files').setInputFiles(path.join(CORPUS, name));
  await expect(page.getByTestId('entity-row').filter({ hasText: name }).first()).toBeVisible({
    timeout: 60_000,
  });
  const list = await page.request.get(`/api/rest/entities?folder_id=${folder.id}`);
  const body = (await list.json()) as ListPage<EntityDto>;
  const file = body.items.find((item): item is FileDto => item.type === 'file');
  expect(file).toBeDefined();
  return file!;
}

/** The Archive page's row of a file, told apart by the folder it came from. */
function archiveRow(page: Page, name: string, folder: FolderDto) {
  return page
    .getByTestId('archive-row')
    .filter({ has: page.getByText(name, { exact: true }) })
    .filter({ hasText: folder.name });
}

/** Deletes an archived file permanently from the Archive page (with its confirmation). */
async function destroyFromArchive(page: Page, name: string, folder: FolderDto): Promise<void> {
  await page.goto('/archive');
  const row = archiveRow(page, name, folder);
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: `Delete ${name} permanently` }).click();
  await (
    await settled(page.getByRole('dialog'))
  )
    .getByRole('button', { name: 'Delete permanently' })
    .click();
}

test('a legal hold refuses a permanent delete until it is released', async ({ page }) => {
  // An upload, three admin pages and two visits to the Archive: more than the default on a busy
  // machine.
  test.setTimeout(300_000);
  const stamp = Date.now().toString(36);
  const holdName = `Hold ${stamp}`;
  await signIn(page);
  const folder = await postFolder(page, `Held ${stamp}`);
  const file = await upload(page, folder, 'minimal-document.pdf');
  const archived = await page.request.post(`/api/rest/files/${file.id}/archive`);
  expect(archived.ok()).toBe(true);

  // Admin → Legal holds: place a hold on the folder.
  await page.goto('/admin/legal-holds');
  const section = page.getByRole('region', { name: 'Legal holds' });
  await expect(section.getByRole('heading', { name: 'Legal holds' })).toBeVisible();
  await section.getByRole('button', { name: 'Place a hold' }).click();
  const dialog = await settled(page.getByRole('dialog', { name: 'Place a legal hold' }));
  await dialog.getByLabel('Name').fill(holdName);
  await dialog.getByLabel('Reason').fill('Pending litigation');
  await dialog.getByLabel('Matter').fill(`Matter ${stamp}`);
  await dialog.getByRole('button', { name: folder.name }).click();
  await expect(dialog.getByLabel('Picker path')).toContainText(folder.name);
  await dialog.getByRole('button', { name: `Hold “${folder.name}”` }).click();
  await expect(dialog.getByRole('list', { name: 'Folders to hold' })).toContainText(folder.name);
  await dialog.getByRole('button', { name: 'Place hold' }).click();
  await expect(dialog).toBeHidden();
  const card = section.getByRole('listitem').filter({ hasText: holdName });
  await expect(card).toContainText('Active');
  await expect(card).toContainText(folder.name);

  // The archive's permanent delete is refused, naming the hold.
  await destroyFromArchive(page, file.name, folder);
  const refusal = recordsMessage(RECORDS_MESSAGES.underHold, {
    name: file.name,
    hold: holdName,
    action: 'deleted',
  });
  await expect(page.getByText(refusal).first()).toBeVisible();

  // Release the hold (after its confirmation).
  await page.goto('/admin/legal-holds');
  const held = page
    .getByRole('region', { name: 'Legal holds' })
    .getByRole('listitem')
    .filter({ hasText: holdName });
  await held.getByRole('button', { name: `Release ${holdName}` }).click();
  const confirm = await settled(page.getByRole('dialog'));
  await expect(confirm).toContainText(`Release “${holdName}”?`);
  await confirm.getByRole('button', { name: 'Release hold' }).click();
  await expect(held.locator('.ant-tag')).toHaveText('Released');

  // Now the permanent delete goes through.
  await destroyFromArchive(page, file.name, folder);
  await expect(archiveRow(page, file.name, folder)).toHaveCount(0);
});

test('a file put on a legal hold from its side panel cannot be archived', async ({ page }) => {
  test.setTimeout(300_000);
  const stamp = Date.now().toString(36);
  const holdName = `File hold ${stamp}`;
  await signIn(page);
  // The hold itself holds another folder; the file joins it from its own side panel.
  const elsewhere = await postFolder(page, `Other ${stamp}`);
  const placed = await page.request.post('/api/rest/private/legal_holds', {
    data: { name: holdName, targets: [{ type: 'folder', id: elsewhere.id }] },
  });
  expect(placed.status()).toBe(201);
  const folder = await postFolder(page, `Single ${stamp}`);
  const file = await upload(page, folder, 'minimal-document.pdf');

  const panel = await openDetailsFromRow(page, file.name);
  await panel.getByRole('combobox', { name: 'Add to a legal hold' }).click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: holdName })
    .click();
  await expect(panel.getByRole('list', { name: 'Records protection' })).toContainText(
    `On legal hold: ${holdName}`,
  );

  // A held file cannot be archived either (the step before a permanent delete): the refusal names
  // the hold, and the file stays in its folder.
  const archived = await page.request.post(`/api/rest/files/${file.id}/archive`);
  expect(archived.status()).toBe(409);
  expect(((await archived.json()) as { message: string }).message).toContain(
    recordsMessage(RECORDS_MESSAGES.underHold, {
      name: file.name,
      hold: holdName,
      action: 'archived',
    }),
  );
  const listed = await page.request.get(`/api/rest/entities?folder_id=${folder.id}`);
  const names = ((await listed.json()) as ListPage<EntityDto>).items.map((item) => item.name);
  expect(names).toContain(file.name);
});
