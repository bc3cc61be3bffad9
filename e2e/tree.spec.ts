/**
 * The folder view's layout at desktop widths, in Chromium against the real server: the folder
 * tree pane (flag folderTreeView, on by default) beside the list (a deep folder's ancestors
 * expanded after a reload, navigation by click and by keyboard, collapse kept after a reload, a
 * folder created and renamed showing in it, a file dragged onto a tree folder moves there), and
 * the details panel as a non-modal side pane (another row clicked shows its details, Close gives
 * the focus back).
 */
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { openDetailsFromRow } from './rowMenu';
import { signIn } from './session';
import { openFolder, postFolder } from './folders';

const CORPUS = path.resolve(import.meta.dirname, '../../shared/corpus');

test.use({ viewport: { width: 1440, height: 900 } });

/** The folder tree. */
function tree(page: Page): Locator {
  return page.getByRole('tree', { name: 'Folders' });
}

/** The tree item of the folder named `name`. */
function treeItem(page: Page, name: string): Locator {
  return tree(page)
    .getByRole('treeitem')
    .filter({ has: page.locator('.folder-tree-node', { hasText: name }) });
}

/** The list row of an item by its exact name. */
function row(page: Page, name: string): Locator {
  return page
    .getByTestId('entity-row')
    .filter({ has: page.getByRole('link', { name, exact: true }) });
}

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test('navigate with the folder tree, by click and by keyboard; collapse it', async ({ page }) => {
  const top = await postFolder(page, `Tree ${Date.now()}`);
  const child = await postFolder(page, 'Child', top.id);
  const leaf = await postFolder(page, 'Leaf', child.id);

  // A deep link: the ancestors are expanded and the open folder is selected, after a reload too.
  await openFolder(page, leaf);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Leaf' })).toBeVisible();
  await expect(treeItem(page, 'Leaf')).toHaveAttribute('aria-selected', 'true');
  await expect(treeItem(page, top.name)).toHaveAttribute('aria-expanded', 'true');
  await expect(treeItem(page, 'Child')).toHaveAttribute('aria-expanded', 'true');

  // A click opens the folder.
  await treeItem(page, top.name).locator('.folder-tree-node').click();
  await expect(page.getByRole('heading', { level: 1, name: top.name })).toBeVisible();
  await expect(treeItem(page, top.name)).toHaveAttribute('aria-selected', 'true');

  // The keyboard: the tree's focus starts on the open folder; Down, then Enter opens Child;
  // Left collapses it and Right expands it again.
  await page.getByRole('button', { name: 'Hide folder tree' }).focus();
  await page.keyboard.press('Tab');
  await expect(tree(page)).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Child' })).toBeVisible();
  await expect(treeItem(page, 'Child')).toHaveAttribute('aria-selected', 'true');
  await expect(tree(page)).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(treeItem(page, 'Child')).toHaveAttribute('aria-expanded', 'false');
  await expect(treeItem(page, 'Leaf')).toHaveCount(0);
  await page.keyboard.press('ArrowRight');
  await expect(treeItem(page, 'Child')).toHaveAttribute('aria-expanded', 'true');
  await expect(treeItem(page, 'Leaf')).toBeVisible();

  // A folder created in the open folder, then renamed, shows in the tree.
  await page.getByRole('button', { name: 'New folder' }).click();
  const dialog = page.getByRole('dialog', { name: 'New folder' });
  await dialog.getByLabel('Folder name').fill('Fresh');
  await dialog.getByLabel('Folder name').press('Enter');
  await expect(dialog).toBeHidden();
  await expect(treeItem(page, 'Fresh')).toBeVisible();
  await page.getByRole('button', { name: 'More actions for Fresh' }).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  await page.getByLabel('New name for Fresh').fill('Renamed');
  await page.getByLabel('New name for Fresh').press('Enter');
  await expect(treeItem(page, 'Renamed')).toBeVisible();
  await expect(treeItem(page, 'Fresh')).toHaveCount(0);

  // Collapsing the pane is kept after a reload.
  await page.getByRole('button', { name: 'Hide folder tree' }).click();
  await expect(tree(page)).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Child' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Show folder tree' })).toBeVisible();
  await expect(tree(page)).toHaveCount(0);
  await page.getByRole('button', { name: 'Show folder tree' }).click();
  await expect(treeItem(page, 'Child')).toHaveAttribute('aria-selected', 'true');
});

test('drag a file from the list onto a folder of the tree', async ({ page }) => {
  const parent = await postFolder(page, `Drag ${Date.now()}`);
  await postFolder(page, 'Destination', parent.id);
  await openFolder(page, parent);
  await page.getByLabel('Upload files').setInputFiles(path.join(CORPUS, 'minimal-document.pdf'));
  await expect(row(page, 'minimal-document.pdf')).toHaveCount(1, { timeout: 60_000 });

  // The open folder's subfolders show once its node is expanded.
  await treeItem(page, parent.name).locator('.ant-tree-switcher').click();
  const destination = treeItem(page, 'Destination').locator('.folder-tree-node');
  await expect(destination).toBeVisible();
  await row(page, 'minimal-document.pdf').dragTo(destination);
  await expect(row(page, 'minimal-document.pdf')).toHaveCount(0);
  await expect(page.getByRole('status', { name: 'Moved' })).toContainText(
    '“minimal-document.pdf” moved to Destination.',
  );

  await destination.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Destination' })).toBeVisible();
  await expect(row(page, 'minimal-document.pdf')).toHaveCount(1);
});

test('details as a side pane: the list stays usable and another row shows its details', async ({
  page,
}) => {
  const parent = await postFolder(page, `Pane ${Date.now()}`);
  await postFolder(page, 'First', parent.id);
  await postFolder(page, 'Second', parent.id);
  await openFolder(page, parent);

  const pane = await openDetailsFromRow(page, 'First');
  await expect(page.getByRole('complementary', { name: 'Details' })).toBeVisible();
  // Non-modal: no dialog, and the list beside it takes clicks.
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const box = await pane.boundingBox();
  const list = await page.getByRole('table', { name: `Contents of ${parent.name}` }).boundingBox();
  expect(box && list && list.x + list.width <= box.x).toBe(true);

  await row(page, 'Second').locator('.entity-cell-size').click();
  await expect(pane.getByRole('heading', { level: 2, name: 'Second' })).toBeVisible();
  await expect(page).toHaveURL(/[?&]details=folder%3A|[?&]details=folder:/);

  await pane.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('complementary', { name: 'Details' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'More actions for First' })).toBeFocused();
});
