// Fixtures of the request link page tests: a page answer and a scriptable request uploader.
import type { PublicRequestDto, PublicRequestItemDto } from '@common/documentRequests';
import { DEFAULT_UPLOAD_RESTRICTIONS, type UploadRestrictions } from '@common/uploads';
import type {
  AddResult,
  RequestUploadRequest,
  RequestUploader,
  RequestUploaderEvent,
} from '@src/features/documentRequests/public/requestUploader';

/** One requested item as the recipient sees it. */
export function makePublicItem(
  overrides: Partial<PublicRequestItemDto> = {},
): PublicRequestItemDto {
  return {
    id: 'item-1',
    name: 'Passport',
    description: 'A scan of the photo page.',
    state: 'missing',
    reject_reason: null,
    uploads: [],
    ...overrides,
  };
}

/** The answer of GET /api/rest/public/requests/{token}. */
export function makePublicRequest(overrides: Partial<PublicRequestDto> = {}): PublicRequestDto {
  return {
    firm_name: 'Northwind Advisers',
    title: 'Documents for your 2025 tax return',
    message: 'Please send these by the end of the month.',
    due_date: '2030-04-15',
    status: 'open',
    from_name: 'Ada Lovelace',
    email: 'client@example.com',
    has_password: false,
    locked: false,
    items: [
      makePublicItem(),
      makePublicItem({
        id: 'item-2',
        name: 'Bank statement',
        description: 'The last three months.',
        state: 'rejected',
        reject_reason: 'The statement is cut off at the bottom.',
        uploads: [
          { id: 'u-1', name: 'statement.pdf', size: 2048, uploaded_at: '2030-03-01T10:00:00Z' },
        ],
      }),
      makePublicItem({ id: 'item-3', name: 'Payslip', description: '', state: 'accepted' }),
    ],
    restrictions: { ...DEFAULT_UPLOAD_RESTRICTIONS },
    ...overrides,
  };
}

/** Records what it is given; `emit` plays an uploader event. */
export class FakeRequestUploader implements RequestUploader {
  added: RequestUploadRequest[] = [];
  configured: { token: string; restrictions: UploadRestrictions }[] = [];
  starts = 0;
  retried: string[] = [];
  cancelled: string[] = [];
  released: string[] = [];
  cancelAlls = 0;
  private listeners = new Set<(event: RequestUploaderEvent) => void>();

  configure(token: string, restrictions: UploadRestrictions): void {
    this.configured.push({ token, restrictions });
  }

  add(requests: readonly RequestUploadRequest[]): AddResult[] {
    return requests.map((request) => {
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
    this.cancelAlls += 1;
  }

  release(id: string): void {
    this.released.push(id);
  }

  subscribe(listener: (event: RequestUploaderEvent) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Plays an event to every listener. */
  emit(event: RequestUploaderEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  /** How many listeners are subscribed. */
  get listenerCount(): number {
    return this.listeners.size;
  }
}
