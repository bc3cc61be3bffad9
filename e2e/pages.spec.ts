/**
 * The Archive, Favorites and Recent pages and the entity side panel, in Chromium against
 * the real server: archive items (through the API), restore one from the Archive page, undo it
 * from the toast and restore it again, see it back in its folder, restore a folder whose parent is archived (it goes to Root and says so),
 * delete one permanently after the confirmation, favorite items and see them on Favorites,
 * unfavorite with the star, open the side panel and see the details and the folder's statistics,
 * see an uploaded file on Recent with the firm statistics, and reload each deep link; in an 800px
 * window the lists still show whole names.
 */
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { MESSAGES, formatMessage } from '@common/messages';
import type { CursorPage, Page as ListPage } from '@common/api';
import type { ArchivedEntityDto, EntityDto, FileDto, FolderDto } from '@common/entities';
import { settled } from './dialogs';
import { signIn } from './session';
import { postFolder } from './folders';

const CORPUS = path.resolve(import.meta.dirname, '../../shared/corpus');

test.use({ viewport: { width: 1400, height: 1600 } });

/** Uploads corpus files into a folder through its page's file picker; answers the files. */
async function upload(page: Page, folder: FolderDto, names: string[]): Promise<FileDto[]> {
  await page.goto(`/home/folders/${folder.id}`);
  await expect(page.getByRole('heading', { level: 1, name: folder.name })).toBeVisible();
  await page.getByLabel('Upload files').setInputFiles(names.map((name) => path.join(CORPUS, name)));
  for (const name of names) {
    await expect(page.getByTestId('entity-row').filter({ hasText: name }).first()).toBeVisible({
      timeout: 60_000,
    });
  }
  const list = await page.request.get(`/api/rest/entities?folder_id=${folder.id}`);
  const body = (await list.json()) as ListPage<EntityDto>;
  return body.items.filter((item): item is FileDto => item.type === 'file');
}

/** Archives one item through the API. */
async function archive(page: Page, item: { id: string; type: 'file' | 'folder' }): Promise<void> {
  const response = await page.request.post(`/api/rest/${item.type}s/${item.id}/archive`);
  expect(response.ok()).toBe(true);
}

/** Marks one item as a favorite through the API. */
async function favorite(page: Page, item: { id: string; type: 'file' | 'folder' }): Promise<void> {
  const response = await page.request.patch(`/api/rest/${item.type}s/${item.id}/favorite`, {
    data: { enabled: true },
  });
  expect(response.ok()).toBe(true);
}

/** The ids on the server's Archive list (first page). */
async function archivedIds(page: Page): Promise<string[]> {
  const response = await page.request.get('/api/rest/entities/archived?page_size=500');
  return ((await response.json()) as CursorPage<ArchivedEntityDto>).items.map((item) => item.id);
}

/** Closes the entity side panel (a side pane at this width) with its close button. */
async function closePanel(page: Page): Promise<void> {
  await page.getByTestId('details-panel').getByRole('button', { name: 'Close' }).first().click();
  await expect(page.getByTestId('details-item')).toHaveCount(0);
}

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test('Archive: restore, restore to Root, delete permanently, bulk restore, reload', async ({
  page,
}) => {
  const stamp = Date.now();
  const parent = await postFolder(page, `Archive source ${stamp}`);
  const keep = await postFolder(page, `Restore me ${stamp}`, parent.id);
  const drop = await postFolder(page, `Delete me ${stamp}`, parent.id);
  const orphan = await postFolder(page, `Orphan ${stamp}`, parent.id);
  const [file] = await upload(page, parent, ['minimal-document.pdf']);
  expect(file).toBeDefined();

  // The orphan is archived on its own, then its parent: restoring the orphan must go to Root.
  await archive(page, { id: orphan.id, type: 'folder' });
  await archive(page, { id: keep.id, type: 'folder' });
  await archive(page, { id: drop.id, type: 'folder' });
  await archive(page, { id: file!.id, type: 'file' });

  await page.goto('/archive');
  await expect(page.getByRole('heading', { level: 1, name: 'Archive' })).toBeVisible();
  const rows = page.getByTestId('archive-row');
  const rowOf = (name: string) => rows.filter({ has: page.getByText(name, { exact: true }) });
  for (const name of [keep.name, drop.name, orphan.name, file!.name]) {
    await expect(rowOf(name)).toHaveCount(1);
  }
  // Newest archive first; each row says where it came from.
  await expect(rows.first()).toContainText(file!.name);
  await expect(rowOf(keep.name)).toContainText(`Home / ${parent.name}`);

  // The deep link survives a reload.
  await page.reload();
  await expect(rowOf(keep.name)).toHaveCount(1);

  // Restore one: it leaves the Archive; Undo puts it back at the top; restore it again.
  await rowOf(keep.name)
    .getByRole('button', { name: `Restore ${keep.name}` })
    .click();
  await expect(rowOf(keep.name)).toHaveCount(0);
  await page
    .getByRole('status', { name: 'Restored' })
    .getByRole('button', { name: 'Undo' })
    .click();
  await expect(rows.first()).toContainText(keep.name);
  await rowOf(keep.name)
    .getByRole('button', { name: `Restore ${keep.name}` })
    .click();
  await expect(rowOf(keep.name)).toHaveCount(0);
  await expect(page.getByRole('status', { name: 'Restored' })).toBeVisible();
  const contents = await page.request.get(`/api/rest/entities?folder_id=${parent.id}`);
  const names = ((await contents.json()) as ListPage<EntityDto>).items.map((item) => item.name);
  expect(names).toContain(keep.name);

  // Delete one permanently: nothing happens before the confirmation.
  await rowOf(drop.name)
    .getByRole('button', { name: `Delete ${drop.name} permanently` })
    .click();
  const dialog = await settled(page.getByRole('dialog'));
  await expect(dialog).toContainText(`Delete “${drop.name}” permanently?`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(rowOf(drop.name)).toHaveCount(1);
  await rowOf(drop.name)
    .getByRole('button', { name: `Delete ${drop.name} permanently` })
    .click();
  await (
    await settled(page.getByRole('dialog'))
  )
    .getByRole('button', { name: 'Delete permanently' })
    .click();
  await expect(rowOf(drop.name)).toHaveCount(0);
  await expect.poll(() => archivedIds(page)).not.toContain(drop.id);

  // Archive the parent now; the orphan's folder is archived, so its restore goes to Root.
  await archive(page, { id: parent.id, type: 'folder' });
  await page.reload();
  await expect(rowOf(parent.name)).toHaveCount(1);
  await rowOf(orphan.name)
    .getByRole('button', { name: `Restore ${orphan.name}` })
    .click();
  await expect(
    page.getByText(formatMessage(MESSAGES.restoredToRoot, { name: orphan.name })),
  ).toBeVisible();
  await expect(rowOf(orphan.name)).toHaveCount(0);
  const root = await page.request.get('/api/rest/entities?folder_id=&page_size=500');
  const rootNames = ((await root.json()) as ListPage<EntityDto>).items.map((item) => item.name);
  expect(rootNames).toContain(orphan.name);

  // Bulk: select the parent and the file, restore both.
  await rowOf(parent.name)
    .getByRole('checkbox', { name: `Select ${parent.name}` })
    .check();
  await rowOf(file!.name)
    .getByRole('checkbox', { name: `Select ${file!.name}` })
    .check();
  await expect(page.getByText('2 items selected')).toBeVisible();
  await page.getByRole('button', { name: 'Restore selected' }).click();
  await expect(rowOf(parent.name)).toHaveCount(0);
  await expect(rowOf(file!.name)).toHaveCount(0);
  await expect.poll(() => archivedIds(page)).not.toContain(parent.id);
});

test('Favorites, the side panel with statistics, and Recent', async ({ page }) => {
  const stamp = Date.now();
  const folder = await postFolder(page, `Favorite folder ${stamp}`);
  await postFolder(page, `Inside ${stamp}`, folder.id);
  const files = await upload(page, folder, ['minimal-document.pdf', 'smile.tiff']);
  const pdf = files.find((item) => item.name === 'minimal-document.pdf')!;

  await favorite(page, { id: folder.id, type: 'folder' });
  await favorite(page, { id: pdf.id, type: 'file' });

  await page.goto('/favorites');
  await expect(page.getByRole('heading', { level: 1, name: 'Favorites' })).toBeVisible();
  const rows = page.getByTestId('favorite-row');
  const rowOf = (name: string) => rows.filter({ has: page.getByText(name, { exact: true }) });
  await expect(rowOf(folder.name)).toHaveCount(1);
  await expect(rowOf(pdf.name)).toHaveCount(1);
  // Newest favorite first; the file's location is its folder.
  await expect(rows.first()).toContainText(pdf.name);
  await expect(rowOf(pdf.name).getByRole('link', { name: `Home / ${folder.name}` })).toBeVisible();
  await page.reload();
  await expect(rowOf(folder.name)).toHaveCount(1);

  // The side panel: details and the folder's statistics (fileStats is on by default).
  await rowOf(folder.name)
    .getByRole('button', { name: `Details of ${folder.name}` })
    .click();
  const panel = page.getByTestId('details-item');
  await expect(panel.getByRole('heading', { name: folder.name })).toBeVisible();
  await expect(panel).toContainText('TypeFolder');
  await expect(panel).toContainText('Created by');
  const stats = page.getByTestId('folder-stats');
  await expect(stats).toContainText('Folders1');
  await expect(stats).toContainText('Files2');
  const categories = stats.getByRole('listitem');
  await expect(categories).toHaveCount(8);
  await expect(categories.filter({ hasText: 'PDF' })).toContainText('1 file');
  await expect(categories.filter({ hasText: 'Image' })).toContainText('1 file');

  // A file's panel: its type and its folder as the location.
  await closePanel(page);
  await rowOf(pdf.name)
    .getByRole('button', { name: `Details of ${pdf.name}` })
    .click();
  await expect(panel).toContainText('TypePDF (.pdf)');
  await expect(panel.getByRole('link', { name: folder.name })).toBeVisible();
  await closePanel(page);

  // Unfavorite with the star: the row leaves the page and the server agrees.
  await rowOf(pdf.name)
    .getByRole('button', { name: `Remove ${pdf.name} from favorites` })
    .click();
  await expect(rowOf(pdf.name)).toHaveCount(0);
  await expect
    .poll(async () => {
      const response = await page.request.get('/api/rest/entities/favorites');
      return ((await response.json()) as CursorPage<EntityDto>).items.map((item) => item.id);
    })
    .not.toContain(pdf.id);

  // Recent: the uploaded files, newest first, with when and what, under the firm statistics.
  await page.goto('/recent');
  await expect(page.getByRole('heading', { level: 1, name: 'Recent' })).toBeVisible();
  const recent = page.getByTestId('recent-row').filter({ hasText: 'smile.tiff' }).first();
  await expect(recent).toContainText('Just Now');
  await expect(recent).toContainText('Added');
  await expect(recent.getByRole('link', { name: `Home / ${folder.name}` })).toBeVisible();
  const firm = page.getByTestId('firm-stats');
  await expect(firm).toContainText('Archived files');
  await expect(firm.getByRole('listitem')).toHaveCount(8);
  await page.reload();
  await expect(
    page.getByTestId('recent-row').filter({ hasText: 'smile.tiff' }).first(),
  ).toBeVisible();
});

test('Archive pages through 150 items by cursor while keeping few rows in the DOM', async ({
  page,
}) => {
  const stamp = Date.now();
  const parent = await postFolder(page, `Big archive ${stamp}`);
  const folders: FolderDto[] = [];
  for (let i = 0; i < 150; i += 1) {
    folders.push(await postFolder(page, `Item ${String(i).padStart(3, '0')}`, parent.id));
  }
  const response = await page.request.post('/api/rest/bulk/archive', {
    data: { items: folders.map((folder) => ({ id: folder.id, type: 'folder' })) },
  });
  expect(response.ok()).toBe(true);

  const reads: { url: string; body: string }[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/rest/entities/archived')) {
      reads.push({ url: request.url(), body: request.postData() ?? '' });
    }
  });
  await page.goto('/archive');
  const rows = page.getByTestId('archive-row');
  await expect(rows.first()).toBeVisible();
  const wanted = new Set(folders.map((folder) => folder.id));
  const seen = new Set<string>();
  let most = 0;
  for (let round = 0; round < 60 && [...wanted].some((id) => !seen.has(id)); round += 1) {
    const ids = await rows.evaluateAll((elements) =>
      elements.map((element) => element.getAttribute('data-entity-id') ?? ''),
    );
    most = Math.max(most, ids.length);
    for (const id of ids) seen.add(id);
    await page
      .locator('.collection-archive .virtual-list')
      .evaluate((scroller) => scroller.scrollBy(0, 1500));
    await page.waitForTimeout(150);
  }
  expect([...wanted].filter((id) => !seen.has(id))).toEqual([]);
  // Virtualised: the DOM holds a window of rows, not the whole list.
  expect(most).toBeLessThan(100);
  // archivePaging is on: POST reads, page 1 without a cursor, the next ones with one.
  expect(reads.length).toBeGreaterThanOrEqual(2);
  expect(reads[0]!.url).toMatch(/\/api\/rest\/entities\/archived\?page=1&skip=0$/);
  expect(reads[0]!.body).not.toContain('cursor');
  expect(reads[1]!.url).toMatch(/page=2&skip=0$/);
  expect(reads[1]!.body).toContain('"cursor"');
});

test('a window just wider than the navigation breakpoint keeps names readable', async ({
  page,
}) => {
  const stamp = Date.now();
  const folder = await postFolder(page, `Narrow window ${stamp}`);
  const [pdf] = await upload(page, folder, ['minimal-document.pdf']);
  // 800px: the side navigation is still 220px wide, so the list gets about 530px. The columns
  // follow the list's own width; at the window's they left the name 6px and hid it.
  await page.setViewportSize({ width: 800, height: 700 });
  for (const address of [`/home/folders/${folder.id}`, '/favorites', '/recent']) {
    if (address === '/favorites') await favorite(page, { id: pdf!.id, type: 'file' });
    await page.goto(address);
    const name = page.getByRole('link', { name: pdf!.name, exact: true }).first();
    await expect(name).toBeVisible();
    // The whole name is shown, not squeezed to a sliver.
    const box = await name.boundingBox();
    expect(box!.width).toBeGreaterThan(100);
  }
  await page.goto(`/home/folders/${folder.id}`);
  // Modified gives way first; size and the actions stay.
  const row = page.getByTestId('entity-row').filter({ hasText: pdf!.name });
  await expect(row.locator('.entity-cell-date')).toBeHidden();
  await expect(row.getByRole('button', { name: `More actions for ${pdf!.name}` })).toBeVisible();
  // The admin tabs keep one line each (they scroll sideways instead).
  await page.goto('/admin/members');
  const tabs = page.getByRole('navigation', { name: 'Admin sections' });
  const teams = await tabs.getByRole('link', { name: 'Teams' }).boundingBox();
  const fields = await tabs.getByRole('link', { name: 'Index fields' }).boundingBox();
  expect(fields!.height).toBe(teams!.height);
  await page.goto(`/home/folders/${folder.id}`);
  await page.setViewportSize({ width: 1280, height: 720 });
  await expect(row.locator('.entity-cell-date')).toBeVisible();
});
