/**
 * The invitation page a share link opens (/sharing/invitation/:invitationId, public): who shared what, then the guest sign-up form or the sign-in form (the sign-in first when the
 * invited address already has an account; either can be switched to), with the link's password
 * when it has one. Once signed in, the landing location (/sharing/shared). An unknown or revoked
 * link and an expired one say so.
 */
import { Alert, Button, Card, Input, Result, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { PRODUCT_NAME } from '@common/constants';
import { SHARED_LANDING, SHARING_MESSAGES, type InvitationInfoDto } from '@common/sharing';
import { resolveLanding } from '@src/app/landing';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { useSessionBootstrap } from '@src/features/session/components/SessionGate';
import { selectCurrentUser, selectUserDisplayName } from '@src/features/session/sessionSelectors';
import { selectInvitation } from '../sharingSelectors';
import { sharingActions, type InvitationState } from '../sharingSlice';
import { GuestSignInForm, GuestSignUpForm } from './GuestForms';
import './sharing.css';

/** Props of {@link AcceptShare}. */
interface AcceptShareProps {
  token: string;
  info: InvitationInfoDto;
  userName: string;
  accept: InvitationState['accept'];
}

/**
 * For a user who is already signed in: accept the share in one step (with the link's password
 * when it has one). The server refuses another address's invitation; the sign-in form below stays
 * for signing in with the invited account instead.
 */
function AcceptShare({ token, info, userName, accept: request }: AcceptShareProps) {
  const dispatch = useAppDispatch();
  const [password, setPassword] = useState('');
  const accept = () =>
    dispatch(
      sharingActions.acceptRequested({
        linkId: info.link_id,
        token,
        ...(info.requires_password ? { password } : {}),
      }),
    );
  return (
    <div className="share-accept">
      <Alert
        className="share-alert"
        type="info"
        showIcon
        title={`You are signed in as ${userName}.`}
        description="Accept to add this item to your Shared page, or sign in below with the invited account."
      />
      <form
        className="share-accept-form"
        onSubmit={(event) => {
          event.preventDefault();
          accept();
        }}
      >
        {info.requires_password ? (
          <Input.Password
            aria-label="Link password to accept"
            placeholder="Link password"
            autoComplete="off"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        ) : null}
        <Button
          type="primary"
          htmlType="submit"
          loading={request.status === 'loading'}
          disabled={info.requires_password && password === ''}
        >
          Accept
        </Button>
      </form>
      {request.status === 'failed' && request.error ? (
        <Alert className="share-alert" type="error" role="alert" showIcon title={request.error} />
      ) : null}
    </div>
  );
}

/** The page. */
export function InvitationPage() {
  useSessionBootstrap();
  const dispatch = useAppDispatch();
  const { invitationId = '' } = useParams();
  const invitation = useAppSelector(selectInvitation);
  const user = useAppSelector(selectCurrentUser);
  const userName = useAppSelector(selectUserDisplayName);
  const { info, load, problem, landing } = invitation;
  const [mode, setMode] = useState<'signUp' | 'signIn' | null>(null);

  useEffect(() => {
    dispatch(sharingActions.invitationOpened({ token: invitationId }));
    setMode(null);
  }, [dispatch, invitationId]);

  if (landing && user) return <Navigate to={resolveLanding(landing)} replace />;

  let body;
  if (load.status === 'failed') {
    const title =
      problem === 'expired'
        ? SHARING_MESSAGES.linkExpired
        : problem === 'not_found'
          ? SHARING_MESSAGES.linkNotFound
          : 'The invitation could not be loaded.';
    body = (
      <Result
        status={problem === 'other' ? 'error' : 'warning'}
        title={title}
        subTitle={problem === 'other' ? load.error : 'Ask the person who shared it for a new link.'}
        extra={
          problem === 'other' ? (
            <Button
              onClick={() => dispatch(sharingActions.invitationOpened({ token: invitationId }))}
            >
              Try again
            </Button>
          ) : null
        }
      />
    );
  } else if (!info || invitation.token !== invitationId) {
    body = (
      <div role="status" className="share-loading">
        <Spin /> Loading the invitation…
      </div>
    );
  } else if (info.state === 'expired') {
    body = <Result status="warning" title={SHARING_MESSAGES.linkExpired} />;
  } else {
    const current = mode ?? (info.has_account ? 'signIn' : 'signUp');
    const what = info.entity_type === 'folder' ? 'the folder' : 'the file';
    body = (
      <>
        <Typography.Paragraph className="invitation-summary">
          <strong>{info.shared_by_name}</strong> shared {what} <strong>{info.entity_name}</strong>{' '}
          with you.
        </Typography.Paragraph>
        {user ? (
          <AcceptShare
            token={invitationId}
            info={info}
            userName={userName}
            accept={invitation.accept}
          />
        ) : null}
        <Typography.Title level={2} className="invitation-form-title">
          {current === 'signUp' ? 'Create your account' : 'Sign in'}
        </Typography.Title>
        {current === 'signUp' ? (
          <GuestSignUpForm token={invitationId} info={info} />
        ) : (
          <GuestSignInForm token={invitationId} info={info} />
        )}
        <Typography.Paragraph className="invitation-switch">
          {current === 'signUp' ? 'Already have an account?' : 'New here?'}{' '}
          <Button
            type="link"
            className="invitation-switch-button"
            onClick={() => setMode(current === 'signUp' ? 'signIn' : 'signUp')}
          >
            {current === 'signUp' ? 'Sign in instead' : 'Create an account'}
          </Button>
        </Typography.Paragraph>
      </>
    );
  }

  return (
    <main className="sign-in-page invitation-page">
      <Card className="sign-in-card invitation-card">
        <Typography.Title level={1} className="sign-in-title">
          {PRODUCT_NAME}
        </Typography.Title>
        {body}
        {user && load.status !== 'succeeded' ? <Link to={SHARED_LANDING}>Go to Shared</Link> : null}
      </Card>
    </main>
  );
}
