/**
 * Renders the shared notifications of the notifications slice (SPEC section 2): the notification
 * panel (a dialog with the given title and content and a Close button), the success toasts (title,
 * body, optional Undo, close button; bottom left, clear of the upload panel) and the info messages (top centre). Mounted
 * once, in the app shell; features never render these themselves, they dispatch events.
 */
import { CheckCircleFilled, CloseOutlined } from '@ant-design/icons';
import { Alert, Button, Modal } from 'antd';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import {
  selectAnnouncement,
  selectInfoMessages,
  selectNotificationPanel,
  selectSuccessToasts,
} from '../notificationsSelectors';
import { notificationsActions, type SuccessToast } from '../notificationsSlice';
import { undoKeyShortcuts, undoShortcutText, useUndoShortcut } from '../useUndoShortcut';
import './notifications.css';

/** The notification panel: open with a title and content, closed with its Close button. */
function NotificationPanel() {
  const dispatch = useAppDispatch();
  const panel = useAppSelector(selectNotificationPanel);
  const close = () => dispatch(notificationsActions.panelClosed());
  return (
    <Modal
      open={panel.status === 'open'}
      title={panel.title}
      onCancel={close}
      closable={false}
      footer={
        <Button type="primary" onClick={close}>
          Close
        </Button>
      }
      destroyOnHidden
    >
      <p className="notification-panel-content">{panel.content}</p>
    </Modal>
  );
}

/** One success toast. */
function SuccessToastView({ toast }: { toast: SuccessToast }) {
  const dispatch = useAppDispatch();
  return (
    <div className="success-toast" role="status" aria-label={toast.title}>
      <CheckCircleFilled className="success-toast-icon" aria-hidden />
      <div className="success-toast-text">
        <div className="success-toast-title">{toast.title}</div>
        {toast.body ? <div className="success-toast-body">{toast.body}</div> : null}
        {toast.undo ? <div className="success-toast-hint">{undoShortcutText()}</div> : null}
      </div>
      {toast.undo ? (
        <Button
          size="small"
          type="link"
          className="success-toast-undo"
          aria-keyshortcuts={undoKeyShortcuts()}
          onClick={() => dispatch(notificationsActions.undoClicked({ id: toast.id }))}
        >
          Undo
        </Button>
      ) : null}
      <Button
        size="small"
        type="text"
        aria-label="Close"
        icon={<CloseOutlined />}
        onClick={() =>
          dispatch(notificationsActions.successToastClosed({ id: toast.id, reason: 'closed' }))
        }
      />
    </div>
  );
}

/**
 * The panel, the toasts, the info messages, and the live region that tells screen readers what
 * an Undo undid; Ctrl/Cmd+Z undoes the newest toast's action (useUndoShortcut).
 */
export function NotificationCenter() {
  const dispatch = useAppDispatch();
  const toasts = useAppSelector(selectSuccessToasts);
  const messages = useAppSelector(selectInfoMessages);
  const announcement = useAppSelector(selectAnnouncement);
  useUndoShortcut();
  return (
    <>
      <NotificationPanel />
      <section className="info-messages" aria-label="Messages" aria-live="polite">
        {messages.map((message) => (
          <Alert
            key={message.id}
            className="info-message"
            type={message.kind}
            showIcon
            title={message.text}
            closable={{
              'aria-label': 'Dismiss',
              onClose: () =>
                dispatch(
                  notificationsActions.infoMessageClosed({ id: message.id, reason: 'closed' }),
                ),
            }}
          />
        ))}
      </section>
      <section className="success-toasts" aria-label="Notifications" aria-live="polite">
        {toasts.map((toast) => (
          <SuccessToastView key={toast.id} toast={toast} />
        ))}
      </section>
      <div className="visually-hidden" role="status" data-testid="undo-announcement">
        <span key={announcement.id}>{announcement.text}</span>
      </div>
    </>
  );
}
