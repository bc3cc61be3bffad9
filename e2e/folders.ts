/**
 * Creating and opening folders, shared by the specs: through the "New folder" dialog or the API.
 */
import { expect, type Page } from '@playwright/test';
import type { FolderDto } from '@common/entities';

/**
 * Creates a folder named `name` in the folder on screen: "New folder", types the name, submits
 * with Enter, and waits until the dialog has closed and the folder is listed.
 *
 * Enter rather than a click on "Create": antd's modal zooms in from the button that opened it, and
 * on a loaded machine Playwright can find the button "stable" mid-animation and press it while it
 * is a few pixels wide; the button then grows between mouse down and mouse up, no click event
 * fires, and nothing is created (a CI trace showed the dialog still open with "Create" focused and
 * no request). Typing goes to the focused field whatever the dialog's size.
 */
export async function createFolder(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'New folder' }).click();
  const dialog = page.getByRole('dialog', { name: 'New folder' });
  const field = dialog.getByLabel('Folder name');
  await field.fill(name);
  await field.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('link', { name, exact: true })).toBeVisible();
}

/**
 * Creates a folder through the API with the signed-in page's cookies (POST /api/rest/folders), in
 * the folder `parentId` or at the top level ('').
 * @returns the created folder; fails unless the answer is 201
 */
export async function postFolder(page: Page, name: string, parentId = ''): Promise<FolderDto> {
  const response = await page.request.post('/api/rest/folders', {
    data: { name, parent_id: parentId },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as FolderDto;
}

/**
 * Opens a folder of the list by its link and waits for its page: the address changes before the
 * folder's page replaces the current one (the router renders in a transition), and files picked
 * in between would go to the previous page's toolbar.
 */
export async function openFolderLink(page: Page, name: string): Promise<void> {
  await page.getByRole('link', { name, exact: true }).click();
  await expect(page).toHaveURL(/\/home\/folders\/[0-9a-f-]+$/);
  await expect(page.getByRole('heading', { level: 1, name, exact: true })).toBeVisible();
}

/** Opens a folder's page by its address and waits for its heading. */
export async function openFolder(page: Page, folder: FolderDto): Promise<void> {
  await page.goto(`/home/folders/${folder.id}`);
  await expect(page.getByRole('heading', { level: 1, name: folder.name })).toBeVisible();
}

/**
 * Waits until the folder on screen lists `count` rows after an upload. When they do not come, it
 * fails with what the upload panel, its refusals and any open dialog say (an upload refused,
 * stalled or asking about a conflict), so a failed run tells why the files are missing.
 * @param timeout how long to wait, in ms
 */
export async function expectUploadedRows(
  page: Page,
  count: number,
  timeout: number,
): Promise<void> {
  try {
    await expect(page.getByTestId('entity-row')).toHaveCount(count, { timeout });
  } catch (error) {
    const texts = async (testId: string) =>
      (await page.getByTestId(testId).allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    const dialogs = (await page.getByRole('dialog').allInnerTexts()).map((t) => t.trim());
    const seen = {
      rows: await texts('entity-row'),
      uploads: await texts('upload-row'),
      refusals: await texts('upload-refusals'),
      dialogs,
      url: page.url(),
    };
    throw new Error(`${String(error)}\nOn screen: ${JSON.stringify(seen, null, 2)}`, {
      cause: error,
    });
  }
}
