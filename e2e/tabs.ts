/**
 * Opening a link that opens a new tab (a preview), shared by the specs.
 */
import type { Locator, Page, Response } from '@playwright/test';

/**
 * Clicks `link` on `page` and waits for the tab it opens and for the first response whose address
 * contains `urlPart` (the tab's own document, or a request it makes).
 *
 * The tab is taken from the page's own `popup` event, tied to this click. Taking "the other pages
 * of the context" instead raced: a CI run in Chromium 156 saw the preview's response before
 * Playwright had registered the new tab, so the tab was not closed and a later
 * `waitForEvent('page')` took it for the next preview's tab.
 * @returns the new tab and the matching response; close the tab when done with it
 */
export async function openInNewTab(
  page: Page,
  link: Locator,
  urlPart: string,
): Promise<{ tab: Page; response: Response }> {
  const [tab, response] = await Promise.all([
    page.waitForEvent('popup'),
    page.context().waitForEvent('response', (r) => r.url().includes(urlPart)),
    link.click(),
  ]);
  return { tab, response };
}
