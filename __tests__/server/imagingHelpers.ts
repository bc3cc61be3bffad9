/**
 * Helpers of the document-imaging tests: tests that run a conversion or recognition tool. Under
 * CI=true (`.ci/run` installs the tools) a missing tool fails the test; elsewhere the test is
 * skipped with the missing tool and its install command in its name.
 */
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { expect, it } from '@jest/globals';
import { IMAGING_TOOLS, missingToolMessage } from '@common/imaging';

/** Whether `command` is an executable on PATH (test set-up only: synchronous). */
export function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => {
    if (dir === '') return false;
    try {
      accessSync(path.join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Every imaging tool's command. */
export const ALL_TOOLS = IMAGING_TOOLS.map((tool) => tool.command);

/**
 * `it` for a test that needs `tools`: run when they are installed; under CI a failing test naming
 * the missing ones; elsewhere skipped with the reason in its name.
 */
export function itWithTools(
  tools: readonly string[],
  name: string,
  fn: () => Promise<void>,
  timeoutMs?: number,
): void {
  const missing = tools.filter((tool) => !onPath(tool));
  if (missing.length === 0) {
    it(name, fn, timeoutMs);
  } else if (process.env.CI === 'true') {
    it(name, () => {
      expect(missing.map(missingToolMessage)).toEqual([]);
    });
  } else {
    const reason = missing.map(missingToolMessage).join('; ');
    // Skip reason: a conversion tool is not installed on this machine (CI installs it and runs
    // the test; a missing tool fails there).
    it.skip(`${name} (skipped: ${reason})`, fn); // skipped: tool not installed here
  }
}
