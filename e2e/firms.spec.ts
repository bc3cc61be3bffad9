/**
 * Firm provisioning in Chromium against the real server (docs/operations.md "Firms and
 * operators"): a user made an operator from the command line (`npm run admin -- operator grant`)
 * creates a firm with a description on Admin → Firms, adds an existing user to it, and that user
 * finds the firm in the firm switcher (SPEC section 3: by its description) and switches to it.
 * Disabling the firm takes it out of the switcher. The page is then used at 360 px wide: nothing
 * overflows the screen sideways and the firm's actions stay reachable.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { settled } from './dialogs';
import { signIn } from './session';

const password = 'operator password 2024';

/** Runs `npm run admin -- …` on the e2e server's database (the same DATA_DIR). */
function adminCommand(...args: string[]): string {
  return execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join('server', 'cli', 'admin.ts'), ...args],
    {
      env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR },
      encoding: 'utf8',
    },
  );
}

/** Whether the page's content is wider than its viewport (a sideways scroll on a phone). */
function overflowsSideways(page: Page): Promise<boolean> {
  return page.evaluate(
    () => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1,
  );
}

test('an operator provisions a firm; its member switches to it; disabling hides it', async ({
  page,
  browser,
}) => {
  const stamp = Date.now().toString(36);
  const operator = `operator-${stamp}`;
  const member = `member-${stamp}`;
  const firmName = `Harbour ${stamp}`;
  const description = `Harbour Wealth ${stamp}`;

  // The firm's administrator creates the two users; the command line makes one an operator.
  await signIn(page, { landed: 'away' });
  for (const username of [operator, member]) {
    const created = await page.request.post('/api/rest/private/users', {
      data: { username, firstName: 'Test', lastName: username, password, role: 'member' },
    });
    expect(created.status()).toBe(201);
  }
  expect(adminCommand('operator', 'grant', operator)).toContain(operator);

  // The operator creates the firm on Admin → Firms and adds the member as an administrator.
  const operatorContext = await browser.newContext();
  const operatorPage = await operatorContext.newPage();
  await signIn(operatorPage, { username: operator, password, landed: 'away' });
  await operatorPage.goto('/admin/firms');
  const firms = operatorPage.getByRole('region', { name: 'Firms' });
  await firms.getByRole('button', { name: 'Create firm' }).click();
  const create = await settled(operatorPage.getByRole('dialog', { name: 'Create firm' }));
  await create.getByLabel('Firm name').fill(firmName);
  await create.getByLabel('Description').fill(description);
  await create.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(create).toBeHidden();
  const row = firms.getByRole('listitem', { name: firmName });
  await expect(row).toContainText(description);

  await row.getByRole('button', { name: `Members of ${firmName}` }).click();
  const members = await settled(
    operatorPage.getByRole('dialog', { name: `Members of ${firmName}` }),
  );
  await members.getByLabel('Add an existing user by username').fill(member);
  await members.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(members.getByRole('group', { name: `Members of ${firmName}` })).toContainText(
    member,
  );
  await members.getByRole('button', { name: 'Close' }).last().click();

  // The member finds the firm in the switcher by its description and switches to it.
  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  await signIn(memberPage, { username: member, password, landed: 'away' });
  const switcher = memberPage.getByRole('combobox', { name: 'Firm' });
  await switcher.click();
  await memberPage.getByRole('option', { name: description }).click();
  await expect(memberPage.locator('.firm-switcher')).toContainText(description);

  // Disabled, the firm leaves the member's switcher after their next sign-in.
  await row.getByRole('button', { name: `Disable ${firmName}` }).click();
  const disable = await settled(operatorPage.getByRole('dialog', { name: 'Disable firm' }));
  await disable.getByRole('button', { name: 'Disable', exact: true }).click();
  await expect(row).toContainText('Disabled');
  await signIn(memberPage, { username: member, password, landed: 'away' });
  const options = await memberPage.request.get('/api/auth/current-user');
  expect(JSON.stringify(await options.json())).not.toContain(description);

  // On a phone the Firms page keeps to the screen's width and its actions stay reachable.
  await operatorPage.setViewportSize({ width: 360, height: 740 });
  await operatorPage.goto('/admin/firms');
  await expect(row).toBeVisible();
  expect(await overflowsSideways(operatorPage)).toBe(false);
  await row.getByRole('button', { name: `Members of ${firmName}` }).click();
  const phoneMembers = await settled(
    operatorPage.getByRole('dialog', { name: `Members of ${firmName}` }),
  );
  await expect(phoneMembers).toContainText(member);
  const box = await phoneMembers.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 360).toBe(true);

  await operatorContext.close();
  await memberContext.close();
});
