// A scriptable Uploader for the upload tests: records what it is given and emits events on demand.
import type { UploadRestrictions } from '@common/uploads';
import type {
  AddResult,
  UploadRequest,
  Uploader,
  UploaderEvent,
} from '@src/features/uploads/uploader';

/** Records added files, starts, retries, cancels and releases; `emit` plays an uploader event. */
export class FakeUploader implements Uploader {
  added: UploadRequest[] = [];
  starts = 0;
  cancels = 0;
  retried: string[] = [];
  cancelled: string[] = [];
  released: string[] = [];
  resumes = 0;
  configured: UploadRestrictions[] = [];
  /** Names the fake refuses, with the reason. */
  refuse = new Map<string, string>();
  /** What restoring() answers: a test sets a pending promise to play a restore still running. */
  restore: Promise<void> | null = null;
  private listeners = new Set<(event: UploaderEvent) => void>();

  restoring(): Promise<void> | null {
    return this.restore;
  }

  configure(restrictions: UploadRestrictions): void {
    this.configured.push(restrictions);
  }

  add(requests: readonly UploadRequest[]): AddResult[] {
    return requests.map((request) => {
      const reason = this.refuse.get(request.file.name);
      if (reason) return { ok: false, reason };
      this.added.push(request);
      return { ok: true, id: `up-${this.added.length}` };
    });
  }

  start(): void {
    this.starts += 1;
  }

  retry(id: string): void {
    this.retried.push(id);
  }

  cancel(id: string): void {
    this.cancelled.push(id);
  }

  cancelAll(): void {
    this.cancels += 1;
  }

  release(id: string): void {
    this.released.push(id);
  }

  resumeRestored(): void {
    this.resumes += 1;
  }

  fileOf(id: string): File | null {
    const index = Number(id.replace('up-', '')) - 1;
    return this.added[index]?.file ?? null;
  }

  subscribe(listener: (event: UploaderEvent) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** How many listeners are subscribed. */
  get listenerCount(): number {
    return this.listeners.size;
  }

  emit(event: UploaderEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}

/** A File of the given name and size (the size is faked, no bytes are allocated). */
export function fakeFile(name: string, size = 10, type = 'application/pdf'): File {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}
