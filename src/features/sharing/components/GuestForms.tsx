/**
 * The forms of the invitation page: the guest sign-up (first name, last name,
 * e-mail, password, confirm) and the sign-in through a share (e-mail, password), each with the
 * link's password when the link has one. They send the invitation's token (shareId / inviteId);
 * the sharing saga signs in and the page then goes to the landing location.
 */
import { Alert, Button, Form, Input } from 'antd';
import { isValidEmail } from '@common/email';
import { formatMessage } from '@common/messages';
import { passwordProblem } from '@common/passwordPolicy';
import { SHARING_MESSAGES, type InvitationInfoDto } from '@common/sharing';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectInvitation } from '../sharingSelectors';
import { sharingActions } from '../sharingSlice';

/** Message of the confirm field when it differs from the password. */
const PASSWORDS_DIFFER = 'The passwords do not match.';

/** Props of both forms. */
export interface GuestFormProps {
  /** The invitation or link token of the page. */
  token: string;
  info: InvitationInfoDto;
}

/** The e-mail field's rules: required and the spec's e-mail rule. */
const emailRules = [
  { required: true, whitespace: true, message: 'Enter your e-mail address.' },
  {
    validator: async (_rule: unknown, value: string | undefined) => {
      const email = value?.trim() ?? '';
      if (email && !isValidEmail(email)) {
        throw new Error(formatMessage(SHARING_MESSAGES.invalidEmail, { email }));
      }
    },
  },
];

/** The link password field, when the link has one. */
function LinkPasswordField({ info }: { info: InvitationInfoDto }) {
  if (!info.requires_password) return null;
  return (
    <Form.Item
      label="Link password"
      name="linkPassword"
      extra="The password the sender gave you for this link."
      rules={[{ required: true, message: 'Enter the link password.' }]}
    >
      <Input.Password autoComplete="off" />
    </Form.Item>
  );
}

/** The request's error, if any. */
function SubmitError() {
  const { submit } = useAppSelector(selectInvitation);
  if (submit.status !== 'failed' || !submit.error) return null;
  return <Alert className="share-alert" type="error" showIcon title={submit.error} />;
}

/** Values of the sign-up form. */
interface SignUpValues {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  confirm: string;
  linkPassword?: string;
}

/** The guest sign-up form. An invitation's address is fixed; a link's is the guest's choice. */
export function GuestSignUpForm({ token, info }: GuestFormProps) {
  const dispatch = useAppDispatch();
  const { submit } = useAppSelector(selectInvitation);
  const [form] = Form.useForm<SignUpValues>();
  const fixedEmail = info.kind === 'invitation' && info.email ? info.email : null;

  const onFinish = (values: SignUpValues) => {
    dispatch(
      sharingActions.guestSignUpRequested({
        first_name: values.firstName.trim(),
        last_name: values.lastName.trim(),
        email: values.email.trim().toLowerCase(),
        password: values.password,
        shareId: token,
        ...(values.linkPassword ? { link_password: values.linkPassword } : {}),
      }),
    );
  };

  return (
    <Form<SignUpValues>
      form={form}
      layout="vertical"
      name="guest-sign-up"
      requiredMark={false}
      onFinish={onFinish}
      disabled={submit.status === 'loading'}
      initialValues={{ email: fixedEmail ?? '' }}
    >
      <SubmitError />
      <div className="guest-name-row">
        <Form.Item
          label="First name"
          name="firstName"
          rules={[{ required: true, whitespace: true, message: 'Enter your first name.' }]}
        >
          <Input autoComplete="given-name" autoFocus />
        </Form.Item>
        <Form.Item
          label="Last name"
          name="lastName"
          rules={[{ required: true, whitespace: true, message: 'Enter your last name.' }]}
        >
          <Input autoComplete="family-name" />
        </Form.Item>
      </div>
      <Form.Item
        label="E-mail"
        name="email"
        rules={emailRules}
        extra={fixedEmail ? 'The address this invitation was sent to.' : undefined}
      >
        <Input autoComplete="email" readOnly={fixedEmail !== null} />
      </Form.Item>
      <Form.Item
        label="Password"
        name="password"
        rules={[
          { required: true, message: 'Choose a password.' },
          ({ getFieldValue }) => ({
            validator: async (_rule, value: string | undefined) => {
              if (!value) return;
              const email = String(getFieldValue('email') ?? '').trim();
              const names = [getFieldValue('firstName'), getFieldValue('lastName')];
              const problem = await passwordProblem(value, {
                username: email,
                userInputs: names.map((name) => String(name ?? '')),
              });
              if (problem) throw new Error(problem);
            },
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        label="Confirm password"
        name="confirm"
        dependencies={['password']}
        rules={[
          { required: true, message: 'Enter the password again.' },
          ({ getFieldValue }) => ({
            validator: async (_rule, value: string | undefined) => {
              if (value && value !== getFieldValue('password')) throw new Error(PASSWORDS_DIFFER);
            },
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <LinkPasswordField info={info} />
      <Button type="primary" htmlType="submit" block loading={submit.status === 'loading'}>
        Create account and open
      </Button>
    </Form>
  );
}

/** Values of the sign-in form. */
interface SignInValues {
  email: string;
  password: string;
  linkPassword?: string;
}

/** The sign-in through a share (an existing guest or an internal user). */
export function GuestSignInForm({ token, info }: GuestFormProps) {
  const dispatch = useAppDispatch();
  const { submit } = useAppSelector(selectInvitation);
  const [form] = Form.useForm<SignInValues>();

  const onFinish = (values: SignInValues) => {
    dispatch(
      sharingActions.guestSignInRequested({
        email: values.email.trim().toLowerCase(),
        password: values.password,
        inviteId: token,
        ...(values.linkPassword ? { link_password: values.linkPassword } : {}),
      }),
    );
  };

  return (
    <Form<SignInValues>
      form={form}
      layout="vertical"
      name="guest-sign-in"
      requiredMark={false}
      onFinish={onFinish}
      disabled={submit.status === 'loading'}
      initialValues={{ email: info.email ?? '' }}
    >
      <SubmitError />
      <Form.Item label="E-mail" name="email" rules={emailRules}>
        <Input autoComplete="email" autoFocus={!info.email} />
      </Form.Item>
      <Form.Item
        label="Password"
        name="password"
        rules={[{ required: true, message: 'Enter your password.' }]}
      >
        <Input.Password autoComplete="current-password" autoFocus={Boolean(info.email)} />
      </Form.Item>
      <LinkPasswordField info={info} />
      <Button type="primary" htmlType="submit" block loading={submit.status === 'loading'}>
        Sign in and open
      </Button>
    </Form>
  );
}
