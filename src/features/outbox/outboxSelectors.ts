/** Selectors of the mail outbox feature. */
import type { RootState } from '@src/store/store';
import type { OutboxState } from './outboxSlice';

/** The outbox slice. */
export const selectOutbox = (state: RootState): OutboxState => state.outbox;
/** The selected message's read and, once read, the message. */
export const selectOutboxMessage = (state: RootState): OutboxState['message'] =>
  state.outbox.message;
