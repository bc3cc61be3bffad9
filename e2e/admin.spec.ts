/**
 * The admin area in Chromium against the real server, with two browser contexts: the
 * administrator creates a member on /admin/members, restricts a folder from its side panel's
 * Permissions dialog, and the member (second context) sees that folder nowhere — the folder view,
 * the History page, the firm statistics — until the administrator adds them to the folder, when it
 * appears. Then the member locks the account with wrong passwords (even the right password is
 * refused while locked) and the administrator unlocks it from the member list.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import type { FolderDto } from '@common/entities';
import type { FileStatsDto } from '@common/stats';
import { openDetailsFromRow } from './rowMenu';
import { settled } from './dialogs';
import { signIn } from './session';

const memberPassword = 'member password 2024';

test.use({ viewport: { width: 1400, height: 1100 } });

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

/** The firm's live folder count as this page's user sees it (GET files/stats). */
async function folderCount(page: Page): Promise<number> {
  const response = await page.request.get('/api/rest/files/stats');
  expect(response.ok()).toBe(true);
  return ((await response.json()) as FileStatsDto).folders;
}

/** Opens the folder's side panel from the folder view and its Permissions dialog. */
async function openPermissions(page: Page, name: string) {
  await page.goto('/home');
  const panel = await openDetailsFromRow(page, name);
  await panel.getByRole('button', { name: 'Permissions' }).click();
  return settled(page.getByRole('dialog', { name: `Permissions of “${name}”` }));
}

/** Adds one user or team (by the option's text) in the open Permissions dialog. */
async function addPermission(
  page: Page,
  dialog: ReturnType<Page['getByRole']>,
  option: string | RegExp,
) {
  await dialog.getByRole('combobox', { name: 'Users or teams to add' }).click();
  await page.locator('.ant-select-item-option').filter({ hasText: option }).click();
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
}

test('admin restricts a folder from a new member, then adds them; lockout and unlock', async ({
  browser,
}) => {
  const stamp = Date.now().toString(36);
  const username = `member-${stamp}`;
  const folderName = `Restricted ${stamp}`;

  // The administrator creates the member.
  const admin = await newPage(browser);
  await signIn(admin, { landed: 'none' });
  await expect(admin.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await admin
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Admin' })
    .click();
  await expect(admin).toHaveURL(/\/admin\/members$/);
  await admin.getByRole('button', { name: 'Add member' }).click();
  const create = await settled(admin.getByRole('dialog', { name: 'Add member' }));
  await create.getByLabel('First name').fill('Mary');
  await create.getByLabel('Last name').fill(`Jackson ${stamp}`);
  await create.getByLabel('Username').fill(username);
  await create.getByLabel('Password').fill(memberPassword);
  await create.getByRole('button', { name: 'Add member' }).click();
  const memberRow = admin.getByRole('listitem', { name: `Mary Jackson ${stamp}` });
  await expect(memberRow).toBeVisible();
  await expect(memberRow).toContainText('Member');

  // A folder everyone sees, then restricted to the administrator only.
  const response = await admin.request.post('/api/rest/folders', {
    data: { name: folderName, parent_id: '' },
  });
  expect(response.status()).toBe(201);
  const folder = (await response.json()) as FolderDto;

  const member = await newPage(browser);
  await signIn(member, { username, password: memberPassword, landed: 'none' });
  await expect(member.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(
    member.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }),
  ).toHaveCount(0);
  await expect(member.getByRole('link', { name: folderName, exact: true })).toBeVisible();
  const foldersBefore = await folderCount(member);

  let dialog = await openPermissions(admin, folderName);
  await expect(dialog).toContainText('Everyone in the firm can see this folder');
  await addPermission(admin, dialog, 'Demo Administrator');
  await expect(dialog.getByRole('group', { name: 'Folder permissions' })).toContainText(
    'Demo Administrator',
  );
  await expect(dialog).toContainText('Restricted');
  await dialog.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();

  // The member sees it nowhere: folder view, deep link, History, statistics.
  await member.goto('/home');
  await expect(member.getByRole('heading', { level: 1 })).toBeVisible();
  // Wait for the list to load (a row, or the empty folder's text) before checking what it lacks.
  await expect(
    member
      .getByTestId('entity-row')
      .or(member.getByText(/^This folder is empty\./))
      .first(),
  ).toBeVisible();
  await expect(member.getByText(folderName)).toHaveCount(0);
  const direct = await member.request.get(`/api/rest/folders/${folder.id}`);
  expect(direct.status()).toBe(404);
  await member.goto('/history');
  await expect(member.getByRole('heading', { level: 1, name: 'History' })).toBeVisible();
  await expect(member.getByText(/signed in|Log in|logged in/i).first()).toBeVisible();
  await expect(member.getByText(folderName)).toHaveCount(0);
  expect(await folderCount(member)).toBe(foldersBefore - 1);

  // The administrator adds the member: the folder appears for them.
  dialog = await openPermissions(admin, folderName);
  await addPermission(admin, dialog, new RegExp(`Mary Jackson ${stamp}`));
  await expect(dialog.getByRole('group', { name: 'Folder permissions' })).toContainText(
    `Mary Jackson ${stamp}`,
  );
  await dialog.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();

  await member.goto('/home');
  await expect(member.getByRole('link', { name: folderName, exact: true })).toBeVisible();
  expect(await folderCount(member)).toBe(foldersBefore);
  await member.goto('/history');
  await expect(member.getByText(folderName).first()).toBeVisible();

  // Lockout: wrong passwords until the account is locked; then even the right one is refused.
  await member.getByRole('link', { name: 'Sign out' }).click();
  await expect(member.getByRole('button', { name: 'Sign in' })).toBeVisible();
  const locked = member.getByText(/This account is locked/);
  for (let attempt = 0; attempt < 6; attempt += 1) {
    await signIn(member, {
      username,
      password: `wrong password ${attempt}`,
      landed: 'none',
    });
    await expect(member.locator('.sign-in-alert').first()).toBeVisible();
    if ((await locked.count()) > 0) break;
  }
  await expect(locked).toBeVisible();
  await signIn(member, { username, password: memberPassword, landed: 'none' });
  await expect(locked).toBeVisible();
  await expect(member.getByRole('navigation', { name: 'Main' })).toHaveCount(0);

  // The administrator sees the lock and unlocks the account.
  await admin.goto('/admin/members');
  await admin.getByRole('searchbox', { name: 'Search members' }).fill(username);
  const row = admin.getByRole('listitem', { name: `Mary Jackson ${stamp}` });
  await expect(row).toContainText('Locked');
  await row.getByRole('button', { name: `Unlock Mary Jackson ${stamp}` }).click();
  const unlock = await settled(admin.getByRole('dialog', { name: 'Unlock member' }));
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(row).not.toContainText('Locked');

  await signIn(member, { username, password: memberPassword, landed: 'none' });
  await expect(member.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(member.getByRole('link', { name: folderName, exact: true })).toBeVisible();
});
