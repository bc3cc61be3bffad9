/**
 * Throttling of an uploader's progress events: Uppy reports progress many times a second, the
 * store (and the screen) needs it a few times a second per file.
 */

/** Which progress events of each file are passed on, by file id. */
export class ProgressThrottle {
  private readonly lastAt = new Map<string, number>();

  /** @param intervalMs minimum time between two events passed on for one file, in ms */
  constructor(private readonly intervalMs: number) {}

  /**
   * Whether a progress event of a file is passed on: when at least `intervalMs` have passed
   * since the last one passed on (a file not seen yet counts as passed on at epoch 0), and always
   * when every byte is sent. A passed event's time is recorded.
   * @param now the event's time, epoch ms
   */
  pass(id: string, bytesUploaded: number, bytesTotal: number, now: number): boolean {
    if (now - (this.lastAt.get(id) ?? 0) < this.intervalMs && bytesUploaded < bytesTotal) {
      return false;
    }
    this.lastAt.set(id, now);
    return true;
  }

  /** Forgets a file (its next event is passed on). */
  forget(id: string): void {
    this.lastAt.delete(id);
  }

  /** Forgets every file. */
  clear(): void {
    this.lastAt.clear();
  }
}
