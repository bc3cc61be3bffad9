// Shared notifications (SPEC sections 2 and 9): the success toast closes itself after
// 8000 ms and offers Undo and a close button; info messages last 5000 ms; the notification panel
// opens with given content and closes.
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { INFO_MESSAGE_MS, SUCCESS_TOAST_MS } from '@common/constants';
import { NotificationCenter } from '@src/features/notifications/components/NotificationCenter';
import { notificationsActions } from '@src/features/notifications/notificationsSlice';
import type { AppStore } from '@src/store/store';
import { makeRecordingStore, renderWithProviders } from '../../testUtils';

describe('notification sagas', () => {
  let store: AppStore;
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    store.sagaTask.cancel();
    jest.useRealTimers();
  });

  it('closes a success toast by itself after 8000 ms', async () => {
    const recording = makeRecordingStore();
    store = recording.store;
    store.dispatch(
      notificationsActions.successToastRequested({ title: 'Archived', body: '2 items' }),
    );
    const [toast] = store.getState().notifications.toasts;
    expect(toast).toMatchObject({ title: 'Archived', body: '2 items', undo: null });
    await jest.advanceTimersByTimeAsync(SUCCESS_TOAST_MS - 1);
    expect(store.getState().notifications.toasts).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(store.getState().notifications.toasts).toHaveLength(0);
    expect(recording.actions).toContainEqual(
      notificationsActions.successToastClosed({ id: toast!.id, reason: 'expired' }),
    );
  });

  it('Undo dispatches the toast’s action, then closes it (and it does not expire later)', async () => {
    const recording = makeRecordingStore();
    store = recording.store;
    store.dispatch(
      notificationsActions.successToastRequested({
        title: 'Archived',
        body: 'Statement.pdf',
        undoActionType: 'entities/archiveUndoRequested',
        undoPayload: { ids: ['file1'] },
      }),
    );
    const [toast] = store.getState().notifications.toasts;
    expect(toast!.undo).toEqual({
      type: 'entities/archiveUndoRequested',
      payload: { ids: ['file1'] },
    });
    await jest.advanceTimersByTimeAsync(3_000);
    store.dispatch(notificationsActions.undoClicked({ id: toast!.id }));
    expect(recording.actions).toContainEqual({
      type: 'entities/archiveUndoRequested',
      payload: { ids: ['file1'] },
    });
    expect(store.getState().notifications.toasts).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(SUCCESS_TOAST_MS);
    expect(recording.types().filter((t) => t === 'notifications/successToastClosed')).toHaveLength(
      1,
    );
  });

  it('closes an info message by itself after 5000 ms', async () => {
    const recording = makeRecordingStore();
    store = recording.store;
    store.dispatch(notificationsActions.infoMessageRequested({ text: 'Copied.' }));
    expect(store.getState().notifications.messages).toEqual([
      expect.objectContaining({ kind: 'info', text: 'Copied.' }),
    ]);
    await jest.advanceTimersByTimeAsync(INFO_MESSAGE_MS - 1);
    expect(store.getState().notifications.messages).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(store.getState().notifications.messages).toHaveLength(0);
  });

  it('opens the panel with content and closes it', () => {
    store = makeRecordingStore().store;
    store.dispatch(notificationsActions.panelOpened({ title: 'Session timeout', content: 'Hi.' }));
    expect(store.getState().notifications.panel).toEqual({
      status: 'open',
      title: 'Session timeout',
      content: 'Hi.',
    });
    store.dispatch(notificationsActions.panelClosed());
    expect(store.getState().notifications.panel.status).toBe('closed');
  });
});

describe('NotificationCenter', () => {
  let store: AppStore;
  afterEach(() => store.sagaTask.cancel());

  it('shows a toast with title, body, Undo and a close button', async () => {
    const recording = makeRecordingStore();
    store = recording.store;
    renderWithProviders(<NotificationCenter />, { store });
    act(() => {
      store.dispatch(
        notificationsActions.successToastRequested({
          title: 'Moved',
          body: '3 items to Reports',
          undoActionType: 'bulk/undoRequested',
        }),
      );
    });
    const toast = screen.getByRole('status', { name: 'Moved' });
    expect(toast).toHaveTextContent('3 items to Reports');
    await userEvent.click(within(toast).getByRole('button', { name: 'Undo' }));
    expect(recording.types()).toContain('bulk/undoRequested');
    expect(screen.queryByRole('status', { name: 'Moved' })).not.toBeInTheDocument();

    act(() => {
      store.dispatch(notificationsActions.successToastRequested({ title: 'Saved', body: '' }));
    });
    const saved = screen.getByRole('status', { name: 'Saved' });
    expect(within(saved).queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument();
    await userEvent.click(within(saved).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('status', { name: 'Saved' })).not.toBeInTheDocument();
  });

  it('shows info messages and the panel', async () => {
    store = makeRecordingStore().store;
    renderWithProviders(<NotificationCenter />, { store });
    act(() => {
      store.dispatch(
        notificationsActions.infoMessageRequested({ text: 'Not a member.', kind: 'error' }),
      );
      store.dispatch(
        notificationsActions.panelOpened({
          title: 'Session timeout',
          content: 'Your session has been extended for 30 minutes.',
        }),
      );
    });
    expect(screen.getByText('Not a member.')).toBeInTheDocument();
    const dialog = await screen.findByRole('dialog', { name: 'Session timeout' });
    expect(dialog).toHaveTextContent('Your session has been extended for 30 minutes.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(store.getState().notifications.panel.status).toBe('closed');
  });

  it('Ctrl+Z undoes the newest toast’s action while it is open, and says so', () => {
    const recording = makeRecordingStore();
    store = recording.store;
    renderWithProviders(
      <>
        <input aria-label="Name" />
        <NotificationCenter />
      </>,
      { store },
    );
    fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true });
    expect(recording.types()).not.toContain(notificationsActions.undoClicked.type);
    act(() => {
      store.dispatch(
        notificationsActions.successToastRequested({
          title: 'Archived',
          body: '“Alpha” archived.',
          undoActionType: 'test/firstUndo',
        }),
      );
      store.dispatch(
        notificationsActions.successToastRequested({
          title: 'Moved',
          body: '“Beta” moved to Reports.',
          undoActionType: 'test/secondUndo',
        }),
      );
      store.dispatch(notificationsActions.successToastRequested({ title: 'Saved', body: '' }));
    });
    const moved = screen.getByRole('status', { name: 'Moved' });
    expect(moved).toHaveTextContent('Ctrl+Z to undo');
    expect(within(moved).getByRole('button', { name: 'Undo' })).toHaveAttribute(
      'aria-keyshortcuts',
      'Control+Z',
    );
    expect(screen.getByRole('status', { name: 'Saved' })).not.toHaveTextContent('to undo');

    // In a text field the keys undo typing.
    fireEvent.keyDown(screen.getByLabelText('Name'), { key: 'z', ctrlKey: true });
    expect(recording.types()).not.toContain('test/secondUndo');

    fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true });
    expect(recording.types()).toContain('test/secondUndo');
    expect(recording.types()).not.toContain('test/firstUndo');
    expect(screen.queryByRole('status', { name: 'Moved' })).not.toBeInTheDocument();
    expect(screen.getByTestId('undo-announcement')).toHaveTextContent(
      'Undone: “Beta” moved to Reports.',
    );
    expect(screen.getByTestId('undo-announcement')).toHaveAttribute('role', 'status');

    fireEvent.keyDown(document.body, { key: 'Z', ctrlKey: true });
    expect(recording.types()).toContain('test/firstUndo');
    expect(screen.getByTestId('undo-announcement')).toHaveTextContent('Undone: “Alpha” archived.');
    // Nothing left to undo: the keys pass.
    const event = fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true });
    expect(event).toBe(true);
  });
});
