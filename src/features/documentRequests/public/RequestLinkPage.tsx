/**
 * The page a request link opens (/r/:token, public, no account): the firm, who asks, the title,
 * the message, the due date and the checklist. Each item shows its state, a rejected item's
 * reason, the files this recipient sent to it and, while the request is open and the item not
 * accepted, an "Upload file" button (several files at once) with each file's progress and error.
 * A password-protected request asks for the password first; an unknown, expired or cancelled link
 * and a completed request say so. One column, big touch targets, 720px wide at most.
 */
import { Alert, Button, Input, Progress, Result, Spin, Tag, Typography } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useParams } from 'react-router';
import {
  REQUEST_ITEM_STATE_LABELS,
  REQUEST_MESSAGES,
  type PublicRequestDto,
  type PublicRequestItemDto,
  type RequestItemState,
} from '@common/documentRequests';
import { formatSize } from '@common/format';
import { MESSAGES, formatMessage } from '@common/messages';
import { normalizeAllowedType } from '@common/uploads';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import type { RootState } from '@src/store/rootReducer';
import { canUploadTo, selectItemUploads, selectPublicRequestState } from './publicRequestSelectors';
import { publicRequestActions, type RequestUploadRow } from './publicRequestSlice';
import { stageRequestFiles } from './requestUploader';
import './requestLink.css';

/** The colour of each item state's tag. */
const STATE_COLORS: Record<RequestItemState, string> = {
  missing: 'default',
  received: 'processing',
  accepted: 'success',
  rejected: 'error',
};

/** How the due date is shown. */
const DUE_DATE_FORMAT = 'MMM D, YYYY';

/** The `accept` list of the file inputs from the page's allowed types ('' allows any). */
function acceptOf(request: PublicRequestDto): string {
  return request.restrictions.allowed_file_types
    .map(normalizeAllowedType)
    .filter(Boolean)
    .join(',');
}

/** One file being sent (or refused) for an item: its name, size, progress or error. */
function UploadRow({ row }: { row: RequestUploadRow }) {
  const dispatch = useAppDispatch();
  const percent =
    row.size > 0 ? Math.min(100, Math.floor((row.bytesUploaded / row.size) * 100)) : 0;
  return (
    <li className="request-upload-row">
      <div className="request-upload-head">
        <span className="request-file-name">{row.name}</span>
        <span className="request-file-size">{formatSize(row.size)}</span>
      </div>
      {row.status === 'uploading' || row.status === 'recording' ? (
        <>
          <Progress
            percent={row.status === 'recording' ? 100 : percent}
            size="small"
            status="active"
            aria-label={`${row.name} upload progress`}
          />
          <span className="request-upload-status" role="status">
            {row.status === 'recording' ? 'Saving…' : `Uploading… ${percent}%`}
          </span>
        </>
      ) : null}
      {row.status === 'invalid' ? (
        <Alert type="error" role="alert" showIcon title={row.error} />
      ) : null}
      {row.status === 'failed' ? (
        <Alert
          type="error"
          role="alert"
          showIcon
          title={formatMessage(MESSAGES.uploadFailed, { file: row.name })}
          description={row.error}
        />
      ) : null}
      <div className="request-upload-actions">
        {row.status === 'failed' ? (
          <Button onClick={() => dispatch(publicRequestActions.retryRequested({ id: row.id }))}>
            Retry
          </Button>
        ) : null}
        {row.status !== 'recording' ? (
          <Button
            aria-label={`${row.status === 'uploading' ? 'Cancel' : 'Remove'} ${row.name}`}
            onClick={() => dispatch(publicRequestActions.uploadRemoved({ id: row.id }))}
          >
            {row.status === 'uploading' ? 'Cancel' : 'Remove'}
          </Button>
        ) : null}
      </div>
    </li>
  );
}

/** Props of {@link ChecklistItem}. */
interface ChecklistItemProps {
  request: PublicRequestDto;
  item: PublicRequestItemDto;
}

/** One requested item: name, description, state, rejection, files sent and the upload control. */
function ChecklistItem({ request, item }: ChecklistItemProps) {
  const dispatch = useAppDispatch();
  const headingId = useId();
  const input = useRef<HTMLInputElement>(null);
  const uploads = useAppSelector((state: RootState) => selectItemUploads(state, item.id));
  const uploadable = canUploadTo(request, item);

  const onFilesChosen = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    event.target.value = '';
    if (files.length === 0) return;
    const batchId = stageRequestFiles(files);
    dispatch(publicRequestActions.filesPicked({ itemId: item.id, batchId }));
  };

  return (
    <section className="request-item" aria-labelledby={headingId}>
      <div className="request-item-head">
        <Typography.Title level={3} id={headingId} className="request-item-name">
          {item.name}
        </Typography.Title>
        <Tag color={STATE_COLORS[item.state]} className="request-item-state">
          {REQUEST_ITEM_STATE_LABELS[item.state]}
        </Tag>
      </div>
      {item.description ? (
        <Typography.Paragraph className="request-item-description">
          {item.description}
        </Typography.Paragraph>
      ) : null}
      {item.state === 'rejected' ? (
        <Alert
          className="request-item-rejected"
          type="error"
          showIcon
          title={item.reject_reason ? `Rejected: ${item.reject_reason}` : 'Rejected'}
        />
      ) : null}
      {item.uploads.length > 0 ? (
        <ul className="request-item-files" aria-label={`Files sent for ${item.name}`}>
          {item.uploads.map((upload) => (
            <li key={upload.id} className="request-file">
              <span className="request-file-name">{upload.name}</span>
              <span className="request-file-size">{formatSize(upload.size)}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {uploads.length > 0 ? (
        <ul className="request-item-uploads" aria-label={`Uploads for ${item.name}`}>
          {uploads.map((row) => (
            <UploadRow key={row.id} row={row} />
          ))}
        </ul>
      ) : null}
      {uploadable ? (
        <>
          <Button
            className="request-upload-button"
            type={item.state === 'missing' || item.state === 'rejected' ? 'primary' : 'default'}
            size="large"
            icon={<UploadOutlined aria-hidden />}
            aria-label={`Upload file for ${item.name}`}
            onClick={() => input.current?.click()}
          >
            Upload file
          </Button>
          <input
            ref={input}
            type="file"
            multiple
            hidden
            tabIndex={-1}
            accept={acceptOf(request) || undefined}
            aria-label={`Choose files for ${item.name}`}
            onChange={onFilesChosen}
          />
        </>
      ) : null}
    </section>
  );
}

/** The password form of a protected request. */
function PasswordGate({ token }: { token: string }) {
  const dispatch = useAppDispatch();
  const { unlock } = useAppSelector(selectPublicRequestState);
  const [password, setPassword] = useState('');
  const fieldId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    dispatch(publicRequestActions.unlockRequested({ token, password }));
  };
  return (
    <form className="request-password-form" onSubmit={submit} aria-label="Unlock the request">
      <Typography.Paragraph>{REQUEST_MESSAGES.passwordRequired}</Typography.Paragraph>
      <label htmlFor={fieldId} className="request-password-label">
        Password
      </label>
      <Input.Password
        id={fieldId}
        size="large"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      {unlock.status === 'failed' && unlock.error ? (
        <Alert type="error" role="alert" showIcon title={unlock.error} />
      ) : null}
      <Button
        type="primary"
        size="large"
        htmlType="submit"
        block
        loading={unlock.status === 'submitting'}
      >
        Unlock
      </Button>
    </form>
  );
}

/** The firm, who asks, the title, the due date and the message. */
function RequestHeader({ request }: { request: PublicRequestDto }) {
  const due = dayjs(request.due_date);
  return (
    <header className="request-link-header">
      <Typography.Text className="request-link-firm">{request.firm_name}</Typography.Text>
      <Typography.Title level={1} className="request-link-title">
        {request.title}
      </Typography.Title>
      <Typography.Paragraph className="request-link-from">
        Requested by <strong>{request.from_name}</strong>
      </Typography.Paragraph>
      {due.isValid() ? (
        <Typography.Paragraph className="request-link-due">
          Due <time dateTime={request.due_date}>{due.format(DUE_DATE_FORMAT)}</time>
        </Typography.Paragraph>
      ) : null}
      {request.message && !request.locked ? (
        <Typography.Paragraph className="request-link-message">
          {request.message}
        </Typography.Paragraph>
      ) : null}
    </header>
  );
}

/** The message of a request that no longer takes files, or null while it is open. */
function closedMessage(request: PublicRequestDto): string | null {
  switch (request.status) {
    case 'completed':
      return REQUEST_MESSAGES.completed;
    case 'expired':
      return REQUEST_MESSAGES.expired;
    case 'cancelled':
      return REQUEST_MESSAGES.cancelled;
    default:
      return null;
  }
}

/** The recipient's page of a request link (route /r/:token). */
export function RequestLinkPage() {
  const { token = '' } = useParams();
  const dispatch = useAppDispatch();
  const state = useAppSelector(selectPublicRequestState);

  useEffect(() => {
    dispatch(publicRequestActions.pageOpened({ token }));
    return () => {
      dispatch(publicRequestActions.pageClosed());
    };
  }, [dispatch, token]);

  const { request, error } = state;
  let body;
  if (
    state.token !== token ||
    state.status === 'idle' ||
    (state.status === 'loading' && !request)
  ) {
    body = (
      <div role="status" className="request-link-loading">
        <Spin /> Loading the request…
      </div>
    );
  } else if (state.status === 'failed' && error) {
    const refused = error.status === 404 || error.status === 410;
    body = (
      <Result
        status={refused ? 'warning' : 'error'}
        title={refused ? error.message : 'The request could not be loaded.'}
        subTitle={refused ? null : error.message}
        extra={
          refused ? null : (
            <Button
              size="large"
              onClick={() => dispatch(publicRequestActions.pageOpened({ token }))}
            >
              Try again
            </Button>
          )
        }
      />
    );
  } else if (request) {
    const closed = closedMessage(request);
    body = (
      <>
        <RequestHeader request={request} />
        {request.locked ? (
          state.status === 'loading' ? (
            <div role="status" className="request-link-loading">
              <Spin /> Loading the request…
            </div>
          ) : (
            <PasswordGate token={token} />
          )
        ) : (
          <>
            {closed ? (
              <Result
                className="request-link-closed"
                status={request.status === 'completed' ? 'success' : 'warning'}
                title={closed}
              />
            ) : null}
            {request.status === 'open' || request.status === 'completed' ? (
              <ol className="request-checklist" aria-label="Requested documents">
                {request.items.map((item) => (
                  <li key={item.id}>
                    <ChecklistItem request={request} item={item} />
                  </li>
                ))}
              </ol>
            ) : null}
          </>
        )}
      </>
    );
  }

  return <main className="request-link-page">{body}</main>;
}
