/**
 * The share dialog: share a folder or file through a link with invitations
 * by e-mail (recipients checked as typed with the spec's e-mail rule), a message, an expiry (the
 * default and the maximum of common/sharing.ts), an optional password and whether guests may
 * download. Once created, the copyable link (answered only then) with a Copy link button; below,
 * who has access: each link's invitations with their states (sent, accepted, cancelled, expired),
 * Re-send, Cancel invitation, Remove access and Revoke link.
 */
import { CopyOutlined } from '@ant-design/icons';
import {
  Alert,
  App,
  Button,
  Checkbox,
  DatePicker,
  Empty,
  Form,
  Input,
  List,
  Modal,
  Space,
  Spin,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { isValidEmail } from '@common/email';
import { formatDate } from '@common/format';
import { formatMessage } from '@common/messages';
import {
  SHARE_LINK_DEFAULT_DAYS,
  SHARE_LINK_MAX_DAYS,
  SHARING_MESSAGES,
  type InvitationDto,
  type InvitationState,
  type ShareLinkDto,
} from '@common/sharing';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectCanShare, selectShareDialog } from '../sharingSelectors';
import { sharingActions, type ShareTarget } from '../sharingSlice';
import './sharing.css';

/** The words and colours of the invitation states. */
const STATE_TAGS: Record<InvitationState, { text: string; color: string }> = {
  sent: { text: 'Sent', color: 'blue' },
  accepted: { text: 'Accepted', color: 'green' },
  cancelled: { text: 'Cancelled', color: 'default' },
  expired: { text: 'Expired', color: 'orange' },
};

/**
 * Splits the recipients field into addresses: separated by commas, semicolons, spaces or new
 * lines; empty parts dropped, each lowercased, duplicates once.
 */
export function parseRecipients(text: string): string[] {
  const seen = new Set<string>();
  for (const part of text.split(/[\s,;]+/)) {
    if (part) seen.add(part.toLowerCase());
  }
  return [...seen];
}

/** The first address of the field that breaks the e-mail rule, as the message to show; or null. */
export function recipientsProblem(text: string): string | null {
  const bad = parseRecipients(text).find((email) => !isValidEmail(email));
  return bad === undefined ? null : formatMessage(SHARING_MESSAGES.invalidEmail, { email: bad });
}

/** The values of the share form. */
interface ShareFormValues {
  recipients?: string;
  message?: string;
  expires: Dayjs | null;
  password?: string;
  allowDownload: boolean;
}

/** The share form: recipients, message, expiry, password, allow download. */
function ShareForm({ target }: { target: ShareTarget }) {
  const dispatch = useAppDispatch();
  const { create } = useAppSelector(selectShareDialog);
  const [form] = Form.useForm<ShareFormValues>();
  const today = dayjs().startOf('day');
  const latest = dayjs().add(SHARE_LINK_MAX_DAYS, 'day').endOf('day');

  const onFinish = (values: ShareFormValues) => {
    const message = values.message?.trim();
    const password = values.password ?? '';
    dispatch(
      sharingActions.createRequested({
        entity_type: target.type,
        entity_id: target.id,
        emails: parseRecipients(values.recipients ?? ''),
        ...(message ? { message } : {}),
        ...(values.expires ? { expires_at: values.expires.endOf('day').toISOString() } : {}),
        ...(password ? { password } : {}),
        allow_download: values.allowDownload,
      }),
    );
  };

  return (
    <Form<ShareFormValues>
      form={form}
      layout="vertical"
      name="share"
      requiredMark={false}
      onFinish={onFinish}
      disabled={create.status === 'loading'}
      initialValues={{
        expires: dayjs().add(SHARE_LINK_DEFAULT_DAYS, 'day'),
        allowDownload: true,
      }}
    >
      {create.status === 'failed' && create.error ? (
        <Alert className="share-alert" type="error" showIcon title={create.error} />
      ) : null}
      <Form.Item
        label="Recipients"
        name="recipients"
        extra="E-mail addresses, separated by commas. Leave empty to share by link only."
        validateTrigger={['onChange', 'onBlur']}
        rules={[
          {
            validator: async (_rule, value: string | undefined) => {
              const problem = recipientsProblem(value ?? '');
              if (problem) throw new Error(problem);
            },
          },
        ]}
      >
        <Input autoComplete="off" placeholder="name@example.com" autoFocus />
      </Form.Item>
      <Form.Item label="Message" name="message">
        <Input.TextArea rows={3} maxLength={2000} />
      </Form.Item>
      <Form.Item
        label="Expires"
        name="expires"
        extra={`At most ${SHARE_LINK_MAX_DAYS} days from today.`}
        rules={[{ required: true, message: 'Choose when the link expires.' }]}
      >
        <DatePicker
          allowClear={false}
          disabledDate={(date) => date.isBefore(today) || date.isAfter(latest)}
        />
      </Form.Item>
      <Form.Item label="Password (optional)" name="password">
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="allowDownload" valuePropName="checked">
        <Checkbox>Allow download</Checkbox>
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={create.status === 'loading'}>
        Share
      </Button>
    </Form>
  );
}

/** The link just created: the address to copy. */
function CreatedLink({ url }: { url: string }) {
  const dispatch = useAppDispatch();
  const { message } = App.useApp();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      void message.success('Link copied.');
    } catch {
      void message.error('The link could not be copied; select it and copy it by hand.');
    }
  };
  return (
    <div className="share-created">
      <Alert
        className="share-alert"
        type="success"
        showIcon
        title="Shared. Invitations were sent to the recipients."
        description="Whoever opens this link signs up or signs in to see the item. Shared → Shared by me can copy a new link later (this one then stops working)."
      />
      <Space.Compact className="share-link-row">
        <Input readOnly value={url} aria-label="Share link" onFocus={(e) => e.target.select()} />
        <Button icon={<CopyOutlined aria-hidden />} onClick={() => void copy()}>
          Copy link
        </Button>
      </Space.Compact>
      <Button className="share-again" onClick={() => dispatch(sharingActions.createReset())}>
        Share again
      </Button>
    </div>
  );
}

/** One invitation of a link, with its state and actions. */
function InvitationRow({ link, invitation }: { link: ShareLinkDto; invitation: InvitationDto }) {
  const dispatch = useAppDispatch();
  const { pending } = useAppSelector(selectShareDialog);
  const canShare = useAppSelector(selectCanShare);
  const busy = pending.includes(invitation.id);
  const tag = STATE_TAGS[invitation.state];
  const revoked = link.revoked_at !== null;
  const actions =
    revoked || !canShare
      ? []
      : [
          invitation.state !== 'accepted' ? (
            <Button
              key="resend"
              size="small"
              disabled={busy}
              aria-label={`Re-send the invitation to ${invitation.email}`}
              onClick={() =>
                dispatch(
                  sharingActions.manageRequested({
                    kind: 'resend',
                    linkId: link.id,
                    invitationId: invitation.id,
                    email: invitation.email,
                  }),
                )
              }
            >
              Re-send
            </Button>
          ) : null,
          invitation.state === 'sent' ? (
            <Button
              key="cancel"
              size="small"
              disabled={busy}
              aria-label={`Cancel invitation to ${invitation.email}`}
              onClick={() =>
                dispatch(
                  sharingActions.manageRequested({
                    kind: 'cancel',
                    linkId: link.id,
                    invitationId: invitation.id,
                  }),
                )
              }
            >
              Cancel invitation
            </Button>
          ) : null,
        ].filter(Boolean);
  return (
    <List.Item actions={actions} data-testid="share-invitation">
      <List.Item.Meta
        title={invitation.email}
        description={`Invited ${formatDate(invitation.sent_at)}`}
      />
      <Tag color={tag.color}>{tag.text}</Tag>
    </List.Item>
  );
}

/** One link: its settings, its invitations and who accepted it. */
function LinkAccess({ link }: { link: ShareLinkDto }) {
  const dispatch = useAppDispatch();
  const { pending } = useAppSelector(selectShareDialog);
  const canShare = useAppSelector(selectCanShare);
  const revoked = link.revoked_at !== null;
  const facts = [
    `Created by ${link.created_by_name} ${formatDate(link.created_at)}`,
    revoked ? `revoked ${formatDate(link.revoked_at)}` : `expires ${formatDate(link.expires_at)}`,
    link.has_password ? 'password protected' : null,
    link.allow_download ? 'download allowed' : 'no download',
  ].filter(Boolean);
  return (
    <section
      className="share-access-link"
      aria-label={`Link created ${formatDate(link.created_at)}`}
    >
      <div className="share-access-link-head">
        <Typography.Text type="secondary">{facts.join(' · ')}</Typography.Text>
        {revoked ? (
          <Tag>Revoked</Tag>
        ) : !canShare ? null : (
          <Button
            size="small"
            danger
            disabled={pending.includes(link.id)}
            onClick={() =>
              dispatch(sharingActions.manageRequested({ kind: 'revoke', linkId: link.id }))
            }
          >
            Revoke link
          </Button>
        )}
      </div>
      {link.invitations.length > 0 ? (
        <List
          size="small"
          dataSource={link.invitations}
          rowKey={(invitation) => invitation.id}
          renderItem={(invitation) => <InvitationRow link={link} invitation={invitation} />}
        />
      ) : null}
      {link.shares.length > 0 ? (
        <List
          size="small"
          header="Has access"
          dataSource={link.shares}
          rowKey={(share) => share.id}
          renderItem={(share) => (
            <List.Item
              data-testid="share-access"
              actions={
                canShare
                  ? [
                      <Button
                        key="remove"
                        size="small"
                        danger
                        disabled={pending.includes(share.id)}
                        aria-label={`Remove access of ${share.email}`}
                        onClick={() =>
                          dispatch(
                            sharingActions.manageRequested({
                              kind: 'remove',
                              linkId: link.id,
                              shareId: share.id,
                            }),
                          )
                        }
                      >
                        Remove access
                      </Button>,
                    ]
                  : []
              }
            >
              <List.Item.Meta
                title={share.user_name || share.email}
                description={`${share.email} · since ${formatDate(share.created_at)}`}
              />
            </List.Item>
          )}
        />
      ) : null}
    </section>
  );
}

/** Who has access: every link of the item. */
function AccessList() {
  const dispatch = useAppDispatch();
  const { list, links, target, actionError } = useAppSelector(selectShareDialog);
  let body;
  if (list.status === 'failed') {
    body = (
      <Alert
        type="warning"
        showIcon
        title="Who has access could not be loaded."
        description={list.error}
        action={
          <Button
            size="small"
            onClick={() => target && dispatch(sharingActions.dialogOpened(target))}
          >
            Try again
          </Button>
        }
      />
    );
  } else if (list.status !== 'succeeded') {
    body = (
      <div role="status" className="share-loading">
        <Spin size="small" /> Loading…
      </div>
    );
  } else if (links.length === 0) {
    body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="Not shared yet." />;
  } else {
    body = links.map((link) => <LinkAccess key={link.id} link={link} />);
  }
  return (
    <section className="share-access" aria-labelledby="share-access-title">
      <Typography.Title level={3} id="share-access-title" className="share-access-title">
        Who has access
      </Typography.Title>
      {actionError ? (
        <Alert className="share-alert" type="error" showIcon title={actionError} role="alert" />
      ) : null}
      {body}
    </section>
  );
}

/** The dialog, open while the share slice has a target. */
export function ShareDialog() {
  const dispatch = useAppDispatch();
  const { target, createdUrl, mailFailed } = useAppSelector(selectShareDialog);
  const canShare = useAppSelector(selectCanShare);
  if (!target) return null;
  return (
    <Modal
      open
      title={`Share ${target.name}`}
      footer={null}
      width={640}
      destroyOnHidden
      onCancel={() => dispatch(sharingActions.dialogClosed())}
    >
      {mailFailed ? (
        <Alert
          className="share-alert"
          type="warning"
          showIcon
          title={SHARING_MESSAGES.mailFailed}
        />
      ) : null}
      {!canShare ? (
        <Alert
          className="share-alert"
          type="info"
          showIcon
          title="Read-only members can see who has access but cannot share."
        />
      ) : createdUrl ? (
        <CreatedLink url={createdUrl} />
      ) : (
        <ShareForm target={target} />
      )}
      <AccessList />
    </Modal>
  );
}
