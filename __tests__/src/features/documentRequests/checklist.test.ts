// The pure helpers of the advisor's request screens: the checklist's checks and wire shape, the
// recipients' checks, moving items and the progress texts.
import { describe, expect, it } from '@jest/globals';
import { REQUEST_MAX_RECIPIENTS, REQUEST_MESSAGES } from '@common/documentRequests';
import {
  INDEX_VALUE_INCOMPLETE,
  checklistProblem,
  draftItem,
  dueDateAllowed,
  itemsFromDraft,
  moveItem,
  progressDetail,
  progressText,
  recipientsProblem,
} from '@src/features/documentRequests/checklist';
import {
  documentRequestsActions,
  documentRequestsReducer,
  initialDocumentRequestsState,
} from '@src/features/documentRequests/documentRequestsSlice';
import { sanitizeDocumentRequestsAction } from '@src/features/documentRequests/documentRequestsSagas';
import { makeRequest, makeSummary } from './documentRequestsFixtures';

describe('checklist helpers', () => {
  it('checks the checklist with the messages of REQUEST_MESSAGES', () => {
    expect(checklistProblem([])).toBe(REQUEST_MESSAGES.noItems);
    expect(checklistProblem([draftItem({ name: '  ' })])).toBe(REQUEST_MESSAGES.itemNameRequired);
    const halfValue = draftItem({ name: 'ID' });
    halfValue.indexValues.push({ key: 'k', fieldId: 'x1', value: '' });
    expect(checklistProblem([halfValue])).toBe(INDEX_VALUE_INCOMPLETE);
    expect(checklistProblem([draftItem({ name: 'ID' })])).toBeNull();
  });

  it('trims the items and leaves out what is empty', () => {
    const item = draftItem({ name: ' ID ', description: ' ' });
    item.indexValues.push({ key: 'k1', fieldId: null, value: '' });
    expect(itemsFromDraft([item, draftItem({ name: 'Bill', description: ' Recent ' })])).toEqual([
      { name: 'ID' },
      { name: 'Bill', description: 'Recent' },
    ]);
  });

  it('checks the recipients', () => {
    expect(recipientsProblem([])).toBe(REQUEST_MESSAGES.noRecipients);
    expect(recipientsProblem(['a@b.co', 'nope'])).toBe(REQUEST_MESSAGES.invalidEmail);
    const many = Array.from({ length: REQUEST_MAX_RECIPIENTS + 1 }, (_, i) => `p${i}@b.co`);
    expect(recipientsProblem(many)).toBe(REQUEST_MESSAGES.tooManyRecipients);
    expect(recipientsProblem(['a@b.co'])).toBeNull();
  });

  it('allows a due day from today on', () => {
    expect(dueDateAllowed('2030-01-01', '2030-01-01')).toBe(true);
    expect(dueDateAllowed('2029-12-31', '2030-01-01')).toBe(false);
    expect(dueDateAllowed('', '2030-01-01')).toBe(false);
  });

  it('moves an item, and leaves the ends alone', () => {
    expect(moveItem(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });

  it('words the progress', () => {
    const counts = { missing: 1, received: 2, accepted: 2, rejected: 0 };
    expect(progressText(counts)).toBe('2 of 5 accepted');
    expect(progressDetail(counts)).toBe('1 missing · 2 received');
  });
});

describe('documentRequests slice', () => {
  it('puts an answered request on its page and in the list', () => {
    let state = documentRequestsReducer(
      initialDocumentRequestsState,
      documentRequestsActions.listLoaded({ tab: 'open', items: [makeSummary()] }),
    );
    state = documentRequestsReducer(
      state,
      documentRequestsActions.requestOpened({ requestId: 'r1' }),
    );
    const answered = makeRequest({ status: 'cancelled' });
    state = documentRequestsReducer(state, documentRequestsActions.actionSucceeded(answered));
    expect(state.detail.request?.status).toBe('cancelled');
    expect(state.list.items[0]?.status).toBe('cancelled');
    expect(state.list.items[0]).not.toHaveProperty('items');
  });

  it('keeps the password out of the developer tools’ log', () => {
    const action = documentRequestsActions.createRequested({
      folder_id: 'f1',
      items: [{ name: 'ID' }],
      due_date: '2030-01-01',
      recipients: ['a@b.co'],
      password: 'secret',
    });
    expect(sanitizeDocumentRequestsAction(action).payload.password).toBe('••••••');
    expect(action.payload.password).toBe('secret');
  });
});
