/**
 * The server's heap growth setting (server/heap.ts): read from HEAP_GROWING_PERCENT and handed to
 * V8. Its effect on the export's peak RSS is measured by `npm run bench -- history`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { afterAll, afterEach, describe, expect, it, jest } from '@jest/globals';
import { loadConfig } from '@server/config';
import { boundHeapGrowth, HEAP_GROWING_PERCENT } from '@server/heap';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dossier-heap-'));
const load = (env: NodeJS.ProcessEnv) => loadConfig({ DATA_DIR: dataDir, ...env });

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('heap growth', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('reads HEAP_GROWING_PERCENT: 50 by default, 0 for V8 own, and refuses nonsense', () => {
    expect(HEAP_GROWING_PERCENT).toBe(50);
    expect(load({}).heapGrowingPercent).toBe(50);
    expect(load({ HEAP_GROWING_PERCENT: '0' }).heapGrowingPercent).toBe(0);
    expect(load({ HEAP_GROWING_PERCENT: '80.7' }).heapGrowingPercent).toBe(80);
    expect(() => load({ HEAP_GROWING_PERCENT: '-5' })).toThrow(/HEAP_GROWING_PERCENT/);
    expect(() => load({ HEAP_GROWING_PERCENT: 'small' })).toThrow(/HEAP_GROWING_PERCENT/);
  });

  it("sets V8's heap growing flag, and leaves V8's own factor for 0", () => {
    const setFlags = jest.spyOn(v8, 'setFlagsFromString').mockImplementation(() => undefined);
    boundHeapGrowth(50);
    expect(setFlags).toHaveBeenCalledWith('--heap-growing-percent=50');
    setFlags.mockClear();
    boundHeapGrowth(0);
    expect(setFlags).not.toHaveBeenCalled();
  });
});
