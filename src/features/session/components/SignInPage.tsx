/** The sign-in form (route /login, and shown in place of any page when not signed in). */
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { PRODUCT_NAME } from '@common/constants';
import { MESSAGES } from '@common/messages';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectMaintenanceMode } from '@src/features/flags/flagsSelectors';
import { selectSessionEndReason, selectSignIn } from '../sessionSelectors';
import { sessionActions, type SessionEndReason, type SignInRequest } from '../sessionSlice';

/** Notice shown after the session ended on the server. */
const SESSION_ENDED_NOTICE = 'Your session has ended. Please sign in again.';
/** Notice shown after signing out. */
const SIGNED_OUT_NOTICE = 'You have signed out.';

/** The notice for each way a session ends (none when the user never signed in). */
const END_NOTICES: Record<SessionEndReason, string | null> = {
  none: null,
  signedOut: SIGNED_OUT_NOTICE,
  expired: SESSION_ENDED_NOTICE,
  timedOut: MESSAGES.sessionTimedOut,
  signedOutElsewhere: MESSAGES.signedOutInAnotherTab,
};

/** The sign-in card: Username, Password, "Sign in"; shows the server's message on failure. */
export function SignInPage() {
  const dispatch = useAppDispatch();
  const { status, error } = useAppSelector(selectSignIn);
  const endReason = useAppSelector(selectSessionEndReason);
  const maintenance = useAppSelector(selectMaintenanceMode);
  const [form] = Form.useForm<SignInRequest>();

  const onFinish = (values: SignInRequest) => {
    dispatch(
      sessionActions.signInRequested({
        username: values.username.trim(),
        password: values.password,
      }),
    );
  };

  const notice = status !== 'failed' ? END_NOTICES[endReason] : null;

  return (
    <main className="sign-in-page">
      <Card className="sign-in-card">
        <Typography.Title level={1} className="sign-in-title">
          {PRODUCT_NAME}
        </Typography.Title>
        <Typography.Paragraph type="secondary">
          Sign in to your firm&apos;s documents.
        </Typography.Paragraph>
        {status === 'failed' && error ? (
          <Alert className="sign-in-alert" type="error" showIcon title={error} />
        ) : null}
        {notice ? <Alert className="sign-in-alert" type="info" showIcon title={notice} /> : null}
        {maintenance ? (
          <Alert
            className="sign-in-alert"
            type="warning"
            showIcon
            title={MESSAGES.maintenanceSignIn}
          />
        ) : null}
        <Form<SignInRequest>
          form={form}
          layout="vertical"
          name="sign-in"
          requiredMark={false}
          onFinish={onFinish}
          disabled={status === 'loading'}
        >
          <Form.Item
            label="Username"
            name="username"
            rules={[{ required: true, whitespace: true, message: 'Enter your username.' }]}
          >
            <Input autoComplete="username" autoFocus />
          </Form.Item>
          <Form.Item
            label="Password"
            name="password"
            rules={[{ required: true, message: 'Enter your password.' }]}
          >
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={status === 'loading'}>
            Sign in
          </Button>
        </Form>
      </Card>
    </main>
  );
}
