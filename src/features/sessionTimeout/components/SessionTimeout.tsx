/**
 * The session-timeout panel (SPEC section 2): titled 'Session timeout', 'Extend your session? You
 * have {time} left.' with the time as m:ss, a Close and an Extend button. The controller sends the
 * tab to /logout when the session timed out (SPEC section 2: "/logout is where the user is sent on
 * session timeout"). Rendered once for a signed-in user.
 */
import { Alert, Button, Modal } from 'antd';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { LOGOUT_ROUTE } from '@common/constants';
import { MESSAGES, formatMessage } from '@common/messages';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import {
  selectExtendRequest,
  selectIsTimeoutWarningOpen,
  selectSessionTimeoutPhase,
  selectTimeoutRemainingText,
} from '../sessionTimeoutSelectors';
import { sessionTimeoutActions } from '../sessionTimeoutSlice';

/** Where a timed-out tab goes: /logout, which signs out and shows the sign-in page. */
const TIMEOUT_LOGOUT_PATH = `${LOGOUT_ROUTE}?reason=timeout`;

/** The warning panel with its countdown. */
export function SessionTimeoutDialog() {
  const dispatch = useAppDispatch();
  const open = useAppSelector(selectIsTimeoutWarningOpen);
  const time = useAppSelector(selectTimeoutRemainingText);
  const extend = useAppSelector(selectExtendRequest);
  const close = () => dispatch(sessionTimeoutActions.warningClosed());
  return (
    <Modal
      open={open}
      title={MESSAGES.sessionTimeoutTitle}
      onCancel={close}
      closable={false}
      mask={{ closable: false }}
      footer={[
        <Button key="close" onClick={close}>
          Close
        </Button>,
        <Button
          key="extend"
          type="primary"
          loading={extend.status === 'loading'}
          onClick={() => dispatch(sessionTimeoutActions.extendRequested())}
        >
          Extend
        </Button>,
      ]}
    >
      <p className="session-timeout-text" data-testid="session-timeout-text">
        {formatMessage(MESSAGES.sessionTimeoutText, { time })}
      </p>
      {extend.status === 'failed' && extend.error ? (
        <Alert type="error" showIcon title={extend.error} />
      ) : null}
    </Modal>
  );
}

/** The panel, and the move to /logout when the session timed out. Needs a router. */
export function SessionTimeout() {
  const phase = useAppSelector(selectSessionTimeoutPhase);
  const navigate = useNavigate();
  useEffect(() => {
    if (phase === 'timedOut') void navigate(TIMEOUT_LOGOUT_PATH, { replace: true });
  }, [phase, navigate]);
  return <SessionTimeoutDialog />;
}
