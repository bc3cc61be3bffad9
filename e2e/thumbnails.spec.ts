/**
 * Thumbnails and the grid layout in Chromium against the real server with the imaging tools:
 * a PNG and a Word document uploaded into a new folder get first-page thumbnails (the list shows
 * them once imaging made them), the toolbar's switch lays the folder out as cards, and a reload
 * keeps the grid. At a phone's width (390 px) the grid has two columns.
 */
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { createFolder, openFolderLink } from './folders';
import { signIn } from './session';

const CORPUS = path.resolve(import.meta.dirname, '../../shared/corpus');
const FILES = ['smile.png', 'test.docx'];

/** A row's thumbnail image (there is none until imaging made it and the list was read again). */
const thumbnailOf = (page: Page, name: string) =>
  page.getByTestId('entity-row').filter({ hasText: name }).locator('img');

test('thumbnails appear in the list; the grid layout survives a reload', async ({ page }) => {
  await signIn(page);
  const folderName = `Thumbnails ${Date.now()}`;
  await createFolder(page, folderName);
  await openFolderLink(page, folderName);
  await page.getByLabel('Upload files').setInputFiles(FILES.map((name) => path.join(CORPUS, name)));
  await expect(page.getByTestId('entity-row')).toHaveCount(FILES.length, { timeout: 60_000 });

  // The list says which files have a thumbnail when it is read: read it again until both do.
  await expect(async () => {
    await page.reload();
    for (const name of FILES)
      await expect(thumbnailOf(page, name)).toHaveCount(1, { timeout: 2000 });
  }).toPass({ timeout: 120_000, intervals: [2000] });
  for (const name of FILES) {
    const image = thumbnailOf(page, name);
    await expect(image).toHaveAttribute('alt', '');
    await expect(image).toHaveAttribute('loading', 'lazy');
    // The browser loaded the PNG (a broken image would fall back to the icon).
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);
  }

  const toggle = page.getByRole('button', { name: 'Grid view' });
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('.virtual-grid-items [data-testid="entity-row"]')).toHaveCount(2);

  await page.reload();
  await expect(page.getByRole('button', { name: 'Grid view' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(page.locator('.virtual-grid-items [data-testid="entity-row"]')).toHaveCount(2);

  // Two columns at a phone's width: the second card sits beside the first.
  await page.setViewportSize({ width: 390, height: 844 });
  const cards = page.locator('.virtual-grid-item');
  await expect(cards).toHaveCount(2);
  const [first, second] = [await cards.nth(0).boundingBox(), await cards.nth(1).boundingBox()];
  expect(first && second).toBeTruthy();
  expect(Math.abs(first!.y - second!.y)).toBeLessThan(2);
  expect(second!.x).toBeGreaterThan(first!.x + first!.width - 1);
});
