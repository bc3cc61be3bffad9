/**
 * Keyboard-only journeys on the folder page, in Chromium against the real server: the row menu
 * opened with Enter and Escape back on its button; "Copy to…" chosen with Enter, the destination
 * picked in the tree with the arrows and Space, confirmed with Enter; archive with Delete and
 * undo with Ctrl+Z; rename with F2; open a folder with Enter; `/` focuses the search and `?` shows
 * the shortcuts.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { Page as ListPage } from '@common/api';
import type { EntityDto } from '@common/entities';
import { settled } from './dialogs';
import { signIn } from './session';
import { openFolder, postFolder } from './folders';

/** The names of a folder's items, read through the API. */
async function namesIn(page: Page, folderId: string): Promise<string[]> {
  const response = await page.request.get(`/api/rest/entities?folder_id=${folderId}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as ListPage<EntityDto>).items.map((item) => item.name);
}

/** The row of an item by its exact name. */
function row(page: Page, name: string): Locator {
  return page
    .getByTestId('entity-row')
    .filter({ has: page.getByRole('link', { name, exact: true }) });
}

/** Presses Tab until `target` has the focus (at most `max` times). */
async function tabTo(page: Page, target: Locator, max = 8): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    if (await target.evaluate((element) => element.contains(document.activeElement))) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test('copy a folder with the keyboard only: row menu, Copy to…, the tree, Copy here', async ({
  page,
}) => {
  const parent = await postFolder(page, `Keys copy ${Date.now()}`);
  await postFolder(page, 'Source', parent.id);
  const dest = await postFolder(page, 'Dest', parent.id);
  await openFolder(page, parent);

  const button = page.getByRole('button', { name: 'More actions for Source' });
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Rename' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'More actions for Source' })).toBeFocused();
  await expect(page.getByRole('menuitem', { name: 'Rename' })).toBeHidden();

  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Rename' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Copy to…' })).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = await settled(page.getByRole('dialog', { name: 'Copy folder to…' }));

  // The tree: Home is open on the root's folders; the parent is opened with ArrowRight.
  const tree = dialog.locator('.ant-tree');
  const node = (name: string) =>
    dialog.locator('.ant-tree-treenode').filter({
      has: page.locator('.ant-tree-title', { hasText: new RegExp(`^${name}$`) }),
    });
  await expect(node(parent.name)).toBeVisible();
  await tabTo(page, tree);
  await expect(node('Home')).toHaveClass(/ant-tree-treenode-active/);
  const parentNode = node(parent.name);
  for (let i = 0; i < 50; i += 1) {
    if (/ant-tree-treenode-active/.test((await parentNode.getAttribute('class')) ?? '')) break;
    await page.keyboard.press('ArrowDown');
  }
  await expect(parentNode).toHaveClass(/ant-tree-treenode-active/);
  await page.keyboard.press('ArrowRight');
  await expect(node('Dest')).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await expect(node('Dest')).toHaveClass(/ant-tree-treenode-active/);
  await page.keyboard.press(' ');
  await expect(dialog.getByText('Destination: Dest')).toBeVisible();
  await tabTo(page, dialog.getByRole('button', { name: 'Copy here' }));
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status', { name: 'Copied' })).toBeVisible();
  await expect.poll(() => namesIn(page, dest.id)).toEqual(['Source']);
  // The dialog gives the focus back to the menu's button.
  await expect(page.getByRole('button', { name: 'More actions for Source' })).toBeFocused();
});

test('archive with Delete and undo with Ctrl+Z', async ({ page }) => {
  const parent = await postFolder(page, `Keys archive ${Date.now()}`);
  await postFolder(page, 'Keep', parent.id);
  await postFolder(page, 'Omit', parent.id);
  await openFolder(page, parent);

  await row(page, 'Keep').focus();
  await page.keyboard.press('ArrowDown');
  await expect(row(page, 'Omit')).toBeFocused();
  await page.keyboard.press('Delete');
  const toast = page.getByRole('status', { name: 'Archived' });
  await expect(toast).toContainText('Ctrl+Z to undo');
  await expect(row(page, 'Omit')).toHaveCount(0);
  await expect.poll(() => namesIn(page, parent.id)).toEqual(['Keep']);

  await page.keyboard.press('Control+z');
  await expect(row(page, 'Omit')).toHaveCount(1);
  await expect(page.getByTestId('undo-announcement')).toContainText('Undone:');
  await expect.poll(() => namesIn(page, parent.id)).toEqual(['Keep', 'Omit']);
});

test('rename with F2, open a folder with Enter, / focuses the search, ? lists the keys', async ({
  page,
}) => {
  const parent = await postFolder(page, `Keys rename ${Date.now()}`);
  await postFolder(page, 'Draft', parent.id);
  await openFolder(page, parent);

  await row(page, 'Draft').focus();
  await page.keyboard.press('F2');
  const field = page.getByRole('textbox', { name: 'New name for Draft' });
  await expect(field).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Final');
  await page.keyboard.press('Enter');
  await expect(row(page, 'Final')).toHaveCount(1);

  await row(page, 'Final').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Final' })).toBeVisible();

  await page.keyboard.press('/');
  await expect(page.getByRole('combobox', { name: 'Search' })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('?');
  const shortcuts = await settled(page.getByRole('dialog', { name: 'Keyboard shortcuts' }));
  await expect(shortcuts.locator('kbd', { hasText: 'F2' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(shortcuts).toBeHidden();
});
