/** Selectors of the mail outbox feature (issue 7). */
import type { RootState } from '../../store/store';
import type { OutboxState } from './outboxSlice';

/** The outbox slice. */
export const selectOutbox = (state: RootState): OutboxState => state.outbox;
/** The selected message's read and, once read, the message. */
export const selectOutboxMessage = (state: RootState): OutboxState['message'] =>
  state.outbox.message;
/** The selected message's id, or null. */
export const selectOutboxSelectedId = (state: RootState): string | null => state.outbox.selectedId;
