/**
 * Sessions that time out safely, in Chromium against a server whose idle limit is
 * E2E_SESSION_IDLE_SECONDS (125 s; playwright.config.ts): the warning opens 5 s after the last
 * activity and counts down the spec's 120 s.
 * - the warning appears, counts down, and Extend closes it with the confirmation panel;
 * - two tabs: activity in one keeps the other from warning, and Extend in one closes the other's
 *   warning;
 * - the countdown reaching zero lands on the sign-in page, and the old cookie gets 401.
 */
import { expect, test, type Page } from '@playwright/test';
import { MESSAGES } from '@common/messages';
import { signIn } from './session';

const idleSeconds = Number(process.env.E2E_SESSION_IDLE_SECONDS ?? 125);
/** Seconds from the last activity to the warning. */
const warningAfter = idleSeconds - 120;

/** The timeout warning panel of a page. */
const warning = (page: Page) =>
  page.getByRole('dialog', { name: MESSAGES.sessionTimeoutTitle }).filter({
    hasText: 'Extend your session?',
  });

/** The confirmation panel after an extension. */
const confirmation = (page: Page) =>
  page.getByRole('dialog', { name: MESSAGES.sessionTimeoutTitle }).filter({
    hasText: MESSAGES.sessionExtended,
  });

/** The seconds left in the warning text ("You have 1:58 left." → 118). */
async function secondsLeft(page: Page): Promise<number> {
  const text = (await page.getByTestId('session-timeout-text').textContent()) ?? '';
  const match = /You have (\d+):(\d\d) left\./.exec(text);
  if (!match) throw new Error(`unexpected warning text: ${text}`);
  return Number(match[1]) * 60 + Number(match[2]);
}

test('the warning appears, counts down, and Extend keeps the session', async ({ page }) => {
  expect(warningAfter).toBeGreaterThan(0);
  await signIn(page);
  await expect(warning(page)).toBeVisible({ timeout: (warningAfter + 15) * 1000 });
  await expect(warning(page)).toContainText(/Extend your session\? You have [12]:\d\d left\./);
  const first = await secondsLeft(page);
  expect(first).toBeLessThanOrEqual(120);
  await expect.poll(() => secondsLeft(page), { timeout: 10_000 }).toBeLessThan(first);

  const extended = page.waitForResponse(
    (response) => response.url().endsWith('/api/auth/extend-session') && response.ok(),
  );
  await warning(page).getByRole('button', { name: 'Extend' }).click();
  await extended;
  await expect(warning(page)).toBeHidden();
  await expect(confirmation(page)).toBeVisible();
  await expect(confirmation(page)).toContainText('Your session has been extended for 30 minutes.');
  await confirmation(page).getByRole('button', { name: 'Close' }).click();
  await expect(confirmation(page)).toBeHidden();
  const me = await page.request.get('/api/auth/current-user');
  expect(me.status()).toBe(200);
});

test('two tabs: activity in one keeps the other alive and closes its warning', async ({
  context,
}) => {
  const a = await context.newPage();
  await signIn(a);
  const b = await context.newPage();
  await b.goto('/home');
  await expect(b.getByRole('navigation', { name: 'Main' })).toBeVisible();

  // Work in A for three times the warning delay: B never warns.
  const workUntil = Date.now() + warningAfter * 3 * 1000;
  for (let step = 0; Date.now() < workUntil; step += 1) {
    await a.mouse.move(200 + (step % 10) * 20, 300 + (step % 3) * 20);
    await a.waitForTimeout(700);
  }
  await expect(warning(b)).toHaveCount(0);
  await expect(warning(a)).toHaveCount(0);
  const shared = await b.evaluate(() => window.localStorage.getItem('dossier.activity'));
  expect(JSON.parse(shared ?? '{}')).toHaveProperty('lastTimeStamp');

  // Idle: both tabs warn; Extend in A closes B's warning too.
  await expect(warning(b)).toBeVisible({ timeout: (warningAfter + 15) * 1000 });
  await expect(warning(a)).toBeVisible();
  await warning(a).getByRole('button', { name: 'Extend' }).click();
  await expect(confirmation(a)).toBeVisible();
  await expect(warning(b)).toBeHidden();
  await expect(confirmation(b)).toHaveCount(0);
});

test('the countdown reaching zero lands on the sign-in page and ends the session', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout((idleSeconds + 90) * 1000);
  await signIn(page);
  const cookie = (await context.cookies()).find((c) => c.name === 'dossier_session');
  expect(cookie).toBeDefined();
  await expect(warning(page)).toBeVisible({ timeout: (warningAfter + 15) * 1000 });

  await expect(page).toHaveURL(/\/login$/, { timeout: (idleSeconds + 15) * 1000 });
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByText(MESSAGES.sessionTimedOut)).toBeVisible();

  const old = await request.get('/api/auth/current-user', {
    headers: { cookie: `dossier_session=${cookie!.value}` },
  });
  expect(old.status()).toBe(401);

  // The timed-out session's logout is in the history (recorded as the session ended).
  await signIn(page);
  const history = await page.request.post('/api/rest/history', { data: { labels: ['Log out'] } });
  expect(history.ok()).toBe(true);
  const { items } = (await history.json()) as { items: { user_name: string }[] };
  expect(items.length).toBeGreaterThanOrEqual(1);
});
