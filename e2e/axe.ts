/**
 * The accessibility check of the end-to-end suite: axe-core with the WCAG 2.2 AA rule set (and
 * the A and AA rules of 2.0 and 2.1 it builds on), run on the page as it is.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The axe-core tags of WCAG 2.2 level AA, with the levels and versions it includes. */
export const WCAG22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Runs axe on `page` (or only inside `include`, a CSS selector) and fails with every violation's
 * rule, impact and offending elements when there is any.
 *
 * @param page the page, loaded and settled
 * @param where what is being checked, for the failure message ("/home", "Share dialog")
 * @param include a CSS selector limiting the check to a dialog or a region
 */
export async function expectNoAxeViolations(
  page: Page,
  where: string,
  include?: string,
): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags(WCAG22_AA);
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  const described = violations.map(
    (violation) =>
      `${violation.id} (${violation.impact ?? 'unknown'}): ${violation.help}\n` +
      violation.nodes
        .slice(0, 5)
        .map((node) => `    ${node.target.join(' ')} — ${node.failureSummary ?? ''}`)
        .join('\n'),
  );
  expect.soft(described, `axe violations on ${where}`).toEqual([]);
}
