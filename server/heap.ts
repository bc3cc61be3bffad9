/**
 * The V8 heap growth of the server process ("RSS the same at 1M as at 100k").
 *
 * After each full (mark-compact) collection V8 lets the old generation grow to a limit of the
 * surviving size times a factor, by default up to 4, before it collects again. A long request that
 * churns through short-lived objects, as the history export does (rows read, rendered and written
 * as CSV in batches; the objects of a batch outlive two scavenges and are promoted), then makes
 * the heap, and the process's RSS, swell towards four times its live size: the longer the export,
 * the nearer it gets (measured on PostgreSQL: +62–87 MB at 100,000 rows, +120–130 MB at 1,000,000).
 * A smaller factor bounds the peak near the live size whatever the row count, at the cost of
 * more frequent, cheap full collections (the live set is tens of MB; marking is concurrent).
 */
import v8 from 'node:v8';

/** Default of HEAP_GROWING_PERCENT: the old generation may grow 50% over what survived. */
export const HEAP_GROWING_PERCENT = 50;

/**
 * Sets V8's heap growing factor to 1 + percent/100 (the `--heap-growing-percent` flag, which V8
 * reads each time it computes the next collection's limit, so it applies from now on).
 * @param percent growth allowed over the size that survived the last full collection, in percent;
 *   0 leaves V8's own dynamic factor
 */
export function boundHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${Math.floor(percent)}`);
}
