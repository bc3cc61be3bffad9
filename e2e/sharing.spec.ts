/**
 * Sharing with an outside guest in Chromium against the real server, with two browser
 * contexts: the advisor (the seeded administrator) shares a folder with an outside e-mail from the
 * side panel's Share dialog; the guest opens the invitation link from the outbox (the JSON files
 * the mailer writes under DATA_DIR/outbox when no SMTP_URL is set), signs up, lands on
 * /sharing/shared, opens the PDF, downloads a file (sha256 equal to the corpus file) and cannot
 * reach /home (sent back to /sharing/shared). The advisor removes the guest's access and the
 * guest's next click says "Your access to this item has ended."
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { SHARING_MESSAGES } from '@common/sharing';
import { createFolder } from './folders';
import { openDetailsFromRow } from './rowMenu';
import { settled } from './dialogs';
import { signIn } from './session';

const CORPUS = path.resolve(import.meta.dirname, '../../shared/corpus');
const guestPassword = 'guest password 2024';
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

test.use({ viewport: { width: 1400, height: 1100 } });

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

/** The texts of the outbox's messages (newest first): the files, else the admin Outbox API. */
async function outboxTexts(advisor: Page): Promise<string[]> {
  const dir = path.join(process.env.E2E_DATA_DIR ?? '', 'outbox');
  if (process.env.E2E_DATA_DIR && existsSync(dir)) {
    return readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .map((name) => path.join(dir, name))
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)
      .map((file) => readFileSync(file, 'utf8'));
  }
  const response = await advisor.request.get('/api/rest/private/outbox');
  if (!response.ok()) return [];
  return [await response.text()];
}

/** The invitation address e-mailed to `email`, read from the outbox. */
async function invitationPath(advisor: Page, email: string): Promise<string> {
  let found = '';
  await expect
    .poll(
      async () => {
        for (const text of await outboxTexts(advisor)) {
          if (!text.includes(email)) continue;
          const match = /\/sharing\/invitation\/[A-Za-z0-9_-]+/.exec(text);
          if (match) {
            found = match[0];
            return true;
          }
        }
        return false;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return found;
}

/** Opens the folder's side panel from the folder view and its Share dialog. */
async function openShareDialog(page: Page, name: string) {
  await page.goto('/home');
  const panel = await openDetailsFromRow(page, name);
  await panel.getByRole('button', { name: 'Share' }).click();
  return settled(page.getByRole('dialog', { name: `Share ${name}` }));
}

test('an advisor shares a folder with a guest, who signs up, reads it, and loses access', async ({
  browser,
}) => {
  const stamp = Date.now().toString(36);
  const folderName = `Shared client ${stamp}`;
  const guestEmail = `guest-${stamp}@example.com`;
  const pdf = 'minimal-document.pdf';
  const other = 'small-gif.gif';

  // The advisor creates a folder with two files and shares it with the guest's address.
  const advisor = await newPage(browser);
  await signIn(advisor);
  await advisor.goto('/home');
  await createFolder(advisor, folderName);
  await advisor.getByRole('link', { name: folderName, exact: true }).click();
  await expect(advisor).toHaveURL(/\/home\/folders\/[0-9a-f-]+$/);
  // The URL changes before the folder's page renders (react-router navigates in a transition):
  // until then the toolbar still uploads into the root.
  await expect(advisor.getByRole('heading', { level: 1, name: folderName })).toBeVisible();
  await advisor
    .getByLabel('Upload files')
    .setInputFiles([pdf, other].map((name) => path.join(CORPUS, name)));
  await expect(advisor.getByTestId('entity-row')).toHaveCount(2, { timeout: 60_000 });

  let dialog = await openShareDialog(advisor, folderName);
  await dialog.getByLabel('Recipients').fill(guestEmail);
  await dialog.getByLabel('Message').fill('Your statements for this year.');
  await dialog.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(dialog.getByLabel('Share link')).toHaveValue(
    /\/sharing\/invitation\/[A-Za-z0-9_-]+$/,
  );
  await expect(dialog.getByTestId('share-invitation')).toContainText(guestEmail);
  await expect(dialog.getByTestId('share-invitation')).toContainText('Sent');

  // Shared by me lists the invitation as pending right after sharing.
  const byMe = await advisor.context().newPage();
  await byMe.goto('/shared?tab=by-me');
  const byMeRow = byMe.getByTestId('shared-by-me-row').filter({ hasText: guestEmail });
  await expect(byMeRow).toContainText('Invitation pending');
  await expect(byMeRow).toContainText(folderName);

  // The guest opens the e-mailed link and signs up.
  const invitation = await invitationPath(advisor, guestEmail);
  const guest = await newPage(browser);
  await guest.goto(invitation);
  await expect(guest.getByText(folderName)).toBeVisible();
  await guest.getByLabel('First name').fill('Gail');
  await guest.getByLabel('Last name').fill(`Guest ${stamp}`);
  await expect(guest.getByLabel('E-mail')).toHaveValue(guestEmail);
  await guest.getByLabel('Password', { exact: true }).fill(guestPassword);
  await guest.getByLabel('Confirm password').fill(guestPassword);
  await guest.getByRole('button', { name: 'Create account and open' }).click();

  // The guest lands on /sharing/shared and sees only Shared.
  await expect(guest).toHaveURL(/\/sharing\/shared$/);
  const nav = guest.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link')).toHaveCount(1);
  await expect(nav.getByRole('link', { name: 'Shared' })).toBeVisible();
  await guest.getByRole('link', { name: folderName, exact: true }).click();
  await expect(guest).toHaveURL(/\/sharing\/shared\/folders\/[0-9a-f-]+$/);
  await expect(guest.getByTestId('shared-row')).toHaveCount(2);
  await expect(guest.locator('.shared-breadcrumbs')).toContainText(folderName);

  // Opens the PDF in the viewer (it reads the shared preview address).
  const [preview] = await Promise.all([
    guest.waitForResponse((r) => r.url().endsWith('/preview') && r.request().method() === 'GET'),
    guest.getByRole('link', { name: `Preview ${pdf}` }).click(),
  ]);
  expect(preview.status()).toBe(200);
  expect(preview.url()).toContain('/api/rest/shared/files/');
  const viewer = guest.getByRole('dialog', { name: pdf });
  await expect(viewer.getByTestId('viewer-page-count')).toHaveText(/^Page 1 of \d+$/);
  await guest.keyboard.press('Escape');
  await expect(viewer).toBeHidden();

  // Downloads a file: the same bytes as the corpus file.
  const [download] = await Promise.all([
    guest.waitForEvent('download'),
    guest.getByRole('link', { name: `Download ${other}` }).click(),
  ]);
  const saved = await download.path();
  expect(sha256(readFileSync(saved))).toBe(sha256(readFileSync(path.join(CORPUS, other))));

  // Anywhere else in the app sends the guest back to the Shared page, without calling the folder
  // page's API first (a 404).
  const failed: string[] = [];
  guest.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  await guest.goto('/home');
  await expect(guest).toHaveURL(/\/sharing\/shared$/);
  await expect(guest.getByRole('heading', { level: 1, name: 'Shared' })).toBeVisible();
  expect(failed).toEqual([]);
  await expect(guest.getByRole('heading', { level: 1, name: 'Shared' })).toBeVisible();
  await guest.getByRole('link', { name: folderName, exact: true }).click();
  await expect(guest.getByTestId('shared-row')).toHaveCount(2);

  // Shared by me shows the accepted share in a list that has a height (desktop, then a phone,
  // each after a reload), and makes a new copyable link on demand.
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await byMe.setViewportSize(viewport);
    await byMe.reload();
    await expect(byMeRow).toBeVisible();
    await expect(byMeRow).toContainText('Accepted');
    const scroller = byMe.getByRole('table', { name: 'Shared by me' }).locator('.virtual-list');
    expect((await scroller.boundingBox())?.height ?? 0).toBeGreaterThan(40);
  }
  await byMe.setViewportSize({ width: 1440, height: 900 });
  await byMeRow.getByRole('button', { name: /Copy link/ }).click();
  await byMe.getByRole('button', { name: 'Make new link' }).click();
  await expect(byMe.getByRole('dialog').getByLabel('Share link')).toHaveValue(
    /\/sharing\/invitation\/[A-Za-z0-9_-]+$/,
  );
  await byMe.getByRole('button', { name: 'Done' }).click();
  await byMe.close();

  // The advisor sees the accepted invitation and removes the guest's access.
  await advisor.keyboard.press('Escape');
  dialog = await openShareDialog(advisor, folderName);
  await expect(dialog.getByTestId('share-invitation')).toContainText('Accepted');
  await dialog.getByRole('button', { name: `Remove access of ${guestEmail}` }).click();
  await expect(dialog.getByTestId('share-access')).toHaveCount(0);

  // The guest's next click says the access has ended.
  await guest.getByRole('link', { name: `Download ${pdf}` }).click();
  await expect(guest.getByText(SHARING_MESSAGES.accessEnded)).toBeVisible();
  await expect(guest.getByTestId('shared-row')).toHaveCount(0);
});
