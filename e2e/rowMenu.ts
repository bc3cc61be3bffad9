/**
 * Opening an item's side panel from its row's "More actions" menu, shared by the specs that do.
 */
import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Opens the side panel of the item `name` through its row's menu ("More actions for {name}",
 * then "Details") and waits until the panel shows the item.
 *
 * antd's dropdown slides in; on a loaded machine a click can land while the menu still moves and
 * be lost (CI traces show the menu left open, the pointer over the item above "Details", and no
 * panel). Choosing "Details" closes the menu, so the choice is retried until the menu is gone.
 * @returns the side panel
 */
export async function openDetailsFromRow(page: Page, name: string): Promise<Locator> {
  const details = page.getByRole('menuitem', { name: 'Details', exact: true });
  // The finished uploads' panel is closed first: while open, the page keeps its room free and a
  // row further down the list may not be rendered yet.
  const closeUploads = page.getByRole('button', { name: 'Close uploads' });
  if (await closeUploads.isVisible()) await closeUploads.click();
  await expect(async () => {
    if (!(await details.isVisible())) {
      await page.getByRole('button', { name: `More actions for ${name}` }).click();
    }
    await details.click({ timeout: 5_000 });
    await expect(details).toBeHidden({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  const panel = page.getByTestId('details-panel');
  await expect(panel.getByRole('heading', { level: 2, name })).toBeVisible();
  return panel;
}
