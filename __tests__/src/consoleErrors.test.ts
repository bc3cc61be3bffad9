import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import {
  allowConsoleError,
  consoleErrors,
  installConsoleErrorCheck,
  UNSTUBBED_ROUTE,
} from './consoleErrors';

describe('the console.error check of client tests', () => {
  let installed: typeof console.error;
  let printed: unknown[][];
  let hooks: ReturnType<typeof installConsoleErrorCheck>;
  beforeEach(() => {
    installed = console.error;
    printed = [];
    hooks = installConsoleErrorCheck((...args) => printed.push(args));
  });
  afterEach(() => {
    console.error = installed;
  });

  it('fails the test on an unexpected call, naming it, and prints it', () => {
    console.error('Saga worker "loadFolder" failed:', new Error('boom'));
    expect(hooks.check).toThrow(/1 time\(s\) unexpectedly[\s\S]*Saga worker "loadFolder" failed/);
    expect(printed).toHaveLength(1);
    expect(hooks.check).not.toThrow();
  });

  it('passes a call the test allowed, without printing it', () => {
    allowConsoleError(/^GET \/api\/rest\/entities\S* answered 503/);
    console.error('GET /api/rest/entities?page=1 answered 503: Down.');
    expect(hooks.check).not.toThrow();
    expect(printed).toEqual([]);
    expect(consoleErrors()).toEqual(['GET /api/rest/entities?page=1 answered 503: Down.']);
  });

  it('does not carry an allowance into the next test', () => {
    hooks.reset();
    console.error('GET /api/rest/entities?page=1 answered 503: Down.');
    expect(hooks.check).toThrow(/answered 503/);
  });

  it('passes the listed library warnings and unstubbed routes only when allowed', () => {
    console.error('Warning: [antd: List] The `List` component is deprecated and will be removed.');
    expect(hooks.check).not.toThrow();
    console.error('GET /api/rest/files/stats answered 404: Not found.');
    expect(hooks.check).toThrow(/files\/stats/);
    allowConsoleError(UNSTUBBED_ROUTE);
    console.error('GET /api/rest/files/stats answered 404: Not found.');
    console.error('GET /api/rest/folders/zz answered 404: This folder does not exist.');
    expect(hooks.check).toThrow(/This folder does not exist/);
  });
});
