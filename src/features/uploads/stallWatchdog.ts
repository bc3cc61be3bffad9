/**
 * The stall watchdog of uploads (SPEC section 8: "Upload stalled for {seconds} seconds,
 * aborting."): every progress event of a file re-arms its timer; a file with no progress for
 * `timeoutMs` is reported once through `onStall`. While the browser is offline no timer runs (a
 * file waiting for the connection is not stalled).
 */

/** The watchdog of one uploader. */
export interface StallWatchdog {
  /** (Re)starts the file's timer; does nothing while suspended. */
  arm(id: string): void;
  /** Stops the file's timer. */
  clear(id: string): void;
  /** Stops every timer and arms none until {@link resume} (the browser went offline). */
  suspend(): void;
  /** Lets {@link arm} start timers again (the browser is back online). */
  resume(): void;
}

/**
 * @param timeoutMs time without progress before a file counts as stalled, in ms
 * @param onStall called once per stall with the file's id; not called for a cleared timer
 */
export function createStallWatchdog(
  timeoutMs: number,
  onStall: (id: string) => void,
): StallWatchdog {
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  let suspended = false;
  const clear = (id: string) => {
    const timer = timers.get(id);
    if (timer !== undefined) clearTimeout(timer);
    timers.delete(id);
  };
  return {
    arm(id) {
      clear(id);
      if (suspended) return;
      timers.set(
        id,
        setTimeout(() => {
          timers.delete(id);
          onStall(id);
        }, timeoutMs),
      );
    },
    clear,
    suspend() {
      suspended = true;
      for (const id of [...timers.keys()]) clear(id);
    },
    resume() {
      suspended = false;
    },
  };
}
