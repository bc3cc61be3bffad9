/**
 * Organising on the folder page, in Chromium against the real server: inline rename
 * (with the unique-name rule), move by drag-and-drop onto a folder row and onto a breadcrumb, copy
 * a folder through the "Copy to…" picker, favorite a folder, colour a folder, select 50 rows with
 * Shift-click, archive them and undo within 8 seconds, and download a folder as a zip whose
 * entries are checked with yauzl.
 */
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import yauzl from 'yauzl';
import { FOLDER_COLORS } from '@common/constants';
import { settled } from './dialogs';
import { signIn } from './session';
import { openFolder, postFolder } from './folders';

const CORPUS = path.resolve(import.meta.dirname, '../../shared/corpus');

test.use({ viewport: { width: 1400, height: 3200 } });

/** The row of an item by its exact name. */
function row(page: Page, name: string): Locator {
  return page
    .getByTestId('entity-row')
    .filter({ has: page.getByRole('link', { name, exact: true }) });
}

/** Uploads corpus files into the open folder with the file picker and waits for their rows. */
async function upload(page: Page, names: string[]): Promise<void> {
  await page.getByLabel('Upload files').setInputFiles(names.map((name) => path.join(CORPUS, name)));
  for (const name of names) await expect(row(page, name)).toHaveCount(1, { timeout: 60_000 });
}

/** The entry names of a zip file, read with yauzl. */
function zipEntries(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) {
        reject(error ?? new Error('no zip'));
        return;
      }
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test('rename inline: F2, Enter saves the unique name, Esc cancels', async ({ page }) => {
  const parent = await postFolder(page, `Rename ${Date.now()}`);
  await postFolder(page, 'Alpha', parent.id);
  await postFolder(page, 'Beta', parent.id);
  await openFolder(page, parent);

  // F2 on the focused row opens the editor; Esc leaves the name unchanged.
  await row(page, 'Beta').locator('.entity-cell-date').click();
  await page.keyboard.press('F2');
  const editor = page.getByLabel('New name for Beta');
  await expect(editor).toBeFocused();
  await editor.fill('Gamma');
  await editor.press('Escape');
  await expect(editor).toHaveCount(0);
  await expect(row(page, 'Beta')).toHaveCount(1);

  // Enter saves; the server makes the name unique in the folder.
  await row(page, 'Beta').locator('.entity-cell-date').click();
  await page.keyboard.press('F2');
  await page.getByLabel('New name for Beta').fill('Alpha');
  await page.getByLabel('New name for Beta').press('Enter');
  await expect(row(page, 'Alpha (1)')).toHaveCount(1);
  await expect(row(page, 'Beta')).toHaveCount(0);

  // The row menu's Rename does the same.
  await page.getByRole('button', { name: 'More actions for Alpha (1)' }).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  await page.getByLabel('New name for Alpha (1)').fill('Delta');
  await page.getByLabel('New name for Alpha (1)').press('Enter');
  await expect(row(page, 'Delta')).toHaveCount(1);
  await page.reload();
  await expect(row(page, 'Delta')).toHaveCount(1);
  await expect(row(page, 'Alpha')).toHaveCount(1);
});

test('move by drag-and-drop onto a folder row, then back onto a breadcrumb', async ({ page }) => {
  const parent = await postFolder(page, `Move ${Date.now()}`);
  const target = await postFolder(page, 'Target', parent.id);
  await postFolder(page, 'Mover', parent.id);
  await openFolder(page, parent);

  await row(page, 'Mover').dragTo(row(page, 'Target'));
  await expect(row(page, 'Mover')).toHaveCount(0);
  await expect(page.getByRole('status', { name: 'Moved' })).toContainText(
    '“Mover” moved to Target.',
  );

  await openFolder(page, target);
  await expect(row(page, 'Mover')).toHaveCount(1);
  // Drag it onto the parent's breadcrumb: it moves back up.
  const crumb = page
    .getByRole('navigation', { name: 'Folder path' })
    .getByRole('link', { name: parent.name });
  await row(page, 'Mover').dragTo(crumb);
  await expect(row(page, 'Mover')).toHaveCount(0);
  await openFolder(page, parent);
  await expect(row(page, 'Mover')).toHaveCount(1);
  await expect(row(page, 'Target')).toHaveCount(1);
});

test('copy a folder with its contents into a folder picked in the tree', async ({ page }) => {
  const parent = await postFolder(page, `Copy ${Date.now()}`);
  const source = await postFolder(page, 'Source', parent.id);
  await postFolder(page, 'Inner', source.id);
  await postFolder(page, 'Dest', parent.id);
  await openFolder(page, source);
  await upload(page, ['smile.png']);
  await openFolder(page, parent);

  await page.getByRole('button', { name: 'More actions for Source' }).click();
  await page.getByRole('menuitem', { name: 'Copy to…' }).click();
  const dialog = await settled(page.getByRole('dialog', { name: 'Copy folder to…' }));
  const node = (name: string) =>
    dialog.locator('.ant-tree-treenode').filter({
      has: page.locator('.ant-tree-title', { hasText: new RegExp(`^${name}$`) }),
    });
  // The tree loads its first level when the dialog opens; a click on the switcher while that
  // level is still arriving can be lost, so expand until the child shows (a click only while
  // it is absent, then time for the children to load).
  await expect(async () => {
    if ((await node('Dest').count()) === 0) {
      await node(parent.name).locator('.ant-tree-switcher').click();
    }
    await expect(node('Dest')).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await node('Dest').locator('.ant-tree-node-content-wrapper').click();
  await expect(dialog).toContainText('Destination: Dest');
  await dialog.getByRole('button', { name: 'Copy here' }).click();
  await expect(page.getByRole('status', { name: 'Copied' })).toBeVisible();

  await row(page, 'Dest').getByRole('link', { name: 'Dest', exact: true }).click();
  await expect(row(page, 'Source')).toHaveCount(1);
  await row(page, 'Source').getByRole('link', { name: 'Source', exact: true }).click();
  await expect(row(page, 'Inner')).toHaveCount(1);
  await expect(row(page, 'smile.png')).toHaveCount(1);
  // The original is still where it was.
  await openFolder(page, source);
  await expect(row(page, 'smile.png')).toHaveCount(1);
});

test('favorite a folder with its star', async ({ page }) => {
  const parent = await postFolder(page, `Favorite ${Date.now()}`);
  await postFolder(page, 'Starred', parent.id);
  await openFolder(page, parent);
  const star = page.getByRole('button', { name: 'Favorite Starred' });
  await expect(star).toHaveAttribute('aria-pressed', 'false');
  await star.click();
  await expect(star).toHaveAttribute('aria-pressed', 'true');
  await page.reload();
  await expect(page.getByRole('button', { name: 'Favorite Starred' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
});

test('colour a folder from the bulk toolbar; its icon takes the colour', async ({ page }) => {
  const parent = await postFolder(page, `Colour ${Date.now()}`);
  await postFolder(page, 'Painted', parent.id);
  await openFolder(page, parent);
  await page.getByRole('checkbox', { name: 'Select Painted' }).check();
  const toolbar = page.getByRole('toolbar', { name: 'Selected items' });
  await expect(toolbar).toContainText('1 item selected');
  await toolbar.getByRole('button', { name: 'Colour' }).click();
  await page.getByRole('menuitem', { name: 'Dark Red' }).click();
  const darkRed = FOLDER_COLORS.find((color) => color.key === 'dark_red')!;
  const icon = row(page, 'Painted').locator('.entity-icon-folder');
  await expect(row(page, 'Painted').locator('[data-color]')).toHaveAttribute(
    'data-color',
    'dark_red',
  );
  const rgb = (hex: string) =>
    `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
  await expect(icon).toHaveCSS('color', rgb(darkRed.dark));
  await page.reload();
  await expect(row(page, 'Painted').locator('.entity-icon-folder')).toHaveCSS(
    'color',
    rgb(darkRed.dark),
  );
});

test('select 50 rows with Shift-click, archive them, undo within 8 seconds', async ({ page }) => {
  const parent = await postFolder(page, `Bulk ${Date.now()}`);
  const names = Array.from({ length: 60 }, (_, i) => `Item ${String(i + 1).padStart(2, '0')}`);
  for (const name of names) await postFolder(page, name, parent.id);
  await openFolder(page, parent);
  await expect(row(page, 'Item 01')).toHaveCount(1);

  await row(page, 'Item 01').locator('.entity-cell-date').click();
  await row(page, 'Item 50')
    .locator('.entity-cell-date')
    .click({ modifiers: ['Shift'] });
  const toolbar = page.getByRole('toolbar', { name: 'Selected items' });
  await expect(toolbar).toContainText('50 items selected');
  await expect(page.locator('[data-testid="entity-row"][aria-selected="true"]')).toHaveCount(50);

  await toolbar.getByRole('button', { name: 'Archive' }).click();
  const toast = page.getByRole('status', { name: 'Archived' });
  await expect(toast).toContainText('50 items archived.');
  await expect(page.getByTestId('entity-row')).toHaveCount(10);
  await expect(row(page, 'Item 51')).toHaveCount(1);

  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByTestId('entity-row')).toHaveCount(60);
  await expect(page.getByText('Archive undone.')).toBeVisible();
  // The server agrees: after a reload all 60 are there.
  await page.reload();
  await expect(row(page, 'Item 50')).toHaveCount(1);
  await expect(page.getByTestId('entity-row')).toHaveCount(60);
});

test('download a folder as a zip and check its entries', async ({ page }) => {
  const name = `Zip ${Date.now()}`;
  const folder = await postFolder(page, name);
  const sub = await postFolder(page, 'Statements', folder.id);
  await postFolder(page, 'Empty', folder.id);
  await openFolder(page, sub);
  await upload(page, ['minimal-document.pdf', 'smile.jpg']);
  await openFolder(page, folder);
  await upload(page, ['small-rtf.rtf']);

  // From the root: the folder row's zip link.
  await page.goto('/home');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: `Download ${name} as zip` }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${name}.zip`);
  const entries = await zipEntries(await download.path());
  expect(entries).toEqual(
    expect.arrayContaining([
      `${name}/Empty/`,
      `${name}/Statements/minimal-document.pdf`,
      `${name}/Statements/smile.jpg`,
      `${name}/small-rtf.rtf`,
    ]),
  );
  expect(entries.filter((entry) => !entry.endsWith('/'))).toHaveLength(3);
});
