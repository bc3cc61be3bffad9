/**
 * Client tests fail on an unexpected `console.error`. The app logs there only when something
 * went wrong: a failed API call (src/api/client.ts), a saga worker that threw and was caught by
 * `safely()` (src/sagas/safely.ts), React's own warnings. A test that provokes one of these on
 * purpose names it with {@link allowConsoleError}; any other call fails the test after it ran
 * (installed by __tests__/src/setup.ts for every client test).
 */
import { format } from 'node:util';

/**
 * Library messages that are harmless under jsdom, allowed in every test. Each entry says why.
 * Add one only with its reason; an app message never belongs here.
 */
const KNOWN_HARMLESS: readonly { pattern: RegExp; reason: string }[] = [
  {
    pattern: /^Warning: \[antd: (Modal|List)\] .*deprecated/,
    reason:
      "antd 6 deprecates Modal's maskClosable and the List component, which the app still uses; " +
      'the dialogs and lists work, the migration is its own change',
  },
  {
    pattern: /^An update to \w+ inside a test was not wrapped in act\(/,
    reason:
      "React's note that a state update landed outside Testing Library's act(): sagas settle " +
      'their calls on their own schedule, and the tests wait for the outcome with findBy/waitFor',
  },
];

/**
 * What a route a test did not stub answers (the fixtures' stubRoutes: 404 "Not found."), as the
 * API client logs it. Screens read more than some tests stub; such a test, or file, allows this.
 */
export const UNSTUBBED_ROUTE = /^\w+ \S+ answered 404: Not found\.$/;

interface ConsoleErrorState {
  /** Patterns the running test allows (cleared before each test). */
  allowed: RegExp[];
  /** Every call of the running test, formatted as the console would print it. */
  calls: string[];
  /** The calls no allowed pattern or known-harmless entry matched. */
  unexpected: string[];
}

const STATE_KEY = Symbol.for('dossier.tests.consoleErrors');

/** The state, kept on globalThis so that a fresh module registry shares it with setup.ts. */
function state(): ConsoleErrorState {
  const holder = globalThis as unknown as Record<symbol, ConsoleErrorState | undefined>;
  holder[STATE_KEY] ??= { allowed: [], calls: [], unexpected: [] };
  return holder[STATE_KEY];
}

/**
 * Allows, for the running test only, `console.error` calls whose printed text matches one of
 * `patterns` (call it in the test, or in a `beforeEach` for every test of a block). Allowed calls
 * print nothing.
 * @param patterns matched against the call's arguments formatted as the console prints them
 */
export function allowConsoleError(...patterns: RegExp[]): void {
  state().allowed.push(...patterns);
}

/**
 * The `console.error` calls of the running test so far (allowed ones included), each formatted
 * as the console prints it; for tests that assert what was logged.
 */
export function consoleErrors(): readonly string[] {
  return state().calls;
}

/**
 * Installs the recording `console.error` (once per test file) and answers the hooks setup.ts
 * runs around each test: `reset` before it, `check` after it (throws when a call was unexpected,
 * which fails that test).
 * @param print the original console.error, which still prints unexpected calls
 */
export function installConsoleErrorCheck(print: (...args: unknown[]) => void): {
  reset: () => void;
  check: () => void;
} {
  console.error = (...args: unknown[]) => {
    const text = format(...args);
    const current = state();
    current.calls.push(text);
    if (KNOWN_HARMLESS.some((entry) => entry.pattern.test(text))) return;
    if (current.allowed.some((pattern) => pattern.test(text))) return;
    current.unexpected.push(text);
    print(...args);
  };
  return {
    reset: () => {
      const current = state();
      current.allowed = [];
      current.calls = [];
      current.unexpected = [];
    },
    check: () => {
      const { unexpected } = state();
      if (unexpected.length === 0) return;
      const list = unexpected.map((text) => `  - ${text.split('\n')[0]}`).join('\n');
      state().unexpected = [];
      throw new Error(
        `console.error was called ${unexpected.length} time(s) unexpectedly (allow an expected ` +
          `one with allowConsoleError(/pattern/) from __tests__/src/consoleErrors.ts):\n${list}`,
      );
    },
  };
}
