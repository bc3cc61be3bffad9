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
  // The list is virtualised: a row further down (a long Home after earlier tests) is rendered
  // once the list is scrolled to it. The finished uploads' panel is closed first (while open the
  // page keeps its room free).
  await expect(page.getByTestId('entity-row').first()).toBeVisible();
  const closeUploads = page.getByRole('button', { name: 'Close uploads' });
  if (await closeUploads.isVisible()) await closeUploads.click();
  const menuButton = page.getByRole('button', { name: `More actions for ${name}` });
  // Scrolls down from the top until the row is rendered. At the end of what is loaded the list asks for its
  // next page (keyset pagination), which a loaded machine may take seconds to answer: the loop
  // waits for it instead of counting scroll steps.
  const list = page.locator('.virtual-list').first();
  if ((await menuButton.count()) === 0) await list.evaluate((element) => element.scrollTo(0, 0));
  await expect(async () => {
    if ((await menuButton.count()) > 0) return;
    const atEnd = await list.evaluate((element) => {
      const before = element.scrollTop;
      element.scrollBy(0, element.clientHeight * 0.8);
      return element.scrollTop === before;
    });
    throw new Error(atEnd ? `${name}: not in the rows loaded so far` : `${name}: not rendered yet`);
  }).toPass({ timeout: 60_000, intervals: [100, 250] });
  // The virtualised list may render the row anew meanwhile (a file recorded, a thumbnail found):
  // scrolling to the button and pressing it are retried together.
  await expect(async () => {
    if (!(await details.isVisible())) {
      await menuButton.scrollIntoViewIfNeeded({ timeout: 5_000 });
      await menuButton.click({ timeout: 5_000 });
    }
    await details.click({ timeout: 5_000 });
    await expect(details).toBeHidden({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  const panel = page.getByTestId('details-panel');
  await expect(panel.getByRole('heading', { level: 2, name })).toBeVisible();
  return panel;
}
