/**
 * /requests/:requestId: one request (a deep link survives a reload). The header: title, status,
 * folder, due date (red with "Overdue"), recipients with when each first opened the link, who
 * created it; Remind and Cancel (after a confirmation) while it is open. Then its items, each with
 * its state, description, index values and uploaded files (name linking to the folder they landed
 * in, size, who, when), and Accept or Reject (a reason, in a small dialog) while it is received.
 * Every action is answered with the whole request, which replaces the one shown.
 */
import { CheckOutlined, CloseOutlined, StopOutlined, BellOutlined } from '@ant-design/icons';
import { App, Button, Input, Modal, Result, Space, Spin } from 'antd';
import { useEffect, useId, useState } from 'react';
import { Link, useParams } from 'react-router';
import {
  REQUEST_MESSAGES,
  REQUEST_REASON_MAX,
  type DocumentRequestDto,
  type RequestItemDto,
} from '@common/documentRequests';
import { formatDate, formatSize } from '@common/format';
import { PageTitle } from '@src/components/PageTitle';
import { useReturnFocus } from '@src/components/useReturnFocus';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { progressDetail, progressText } from '../checklist';
import { selectRequestAction, selectRequestDetail } from '../documentRequestsSelectors';
import { documentRequestsActions } from '../documentRequestsSlice';
import {
  DueDate,
  folderPath,
  ItemStateTag,
  REQUESTS_LABEL,
  REQUESTS_ROUTE,
  RequestError,
  RequestStatusTag,
} from './requestParts';
import './documentRequests.css';

/** Title of the cancel confirmation. */
export function cancelConfirmTitle(title: string): string {
  return `Cancel “${title}”?`;
}
/** Body of the cancel confirmation. */
export const CANCEL_CONFIRM_TEXT =
  'The link stops working and the recipients can no longer upload. Files already received stay in the folder.';

/** The reject dialog of one item: the reason the client will read. */
function RejectDialog({
  request,
  item,
  onClose,
}: {
  request: DocumentRequestDto;
  item: RequestItemDto;
  onClose: () => void;
}) {
  const dispatch = useAppDispatch();
  const action = useAppSelector(selectRequestAction);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  const saving = action.kind === 'reject' && action.status === 'loading';
  useReturnFocus(true);

  // The dialog closes once the rejection is answered.
  useEffect(() => {
    if (action.kind === 'reject' && action.itemId === item.id && action.status === 'succeeded') {
      onClose();
    }
  }, [action, item.id, onClose]);

  const submit = () => {
    const trimmed = reason.trim();
    if (trimmed === '') return setProblem(REQUEST_MESSAGES.reasonRequired);
    setProblem(null);
    dispatch(
      documentRequestsActions.itemRejectRequested({
        requestId: request.id,
        itemId: item.id,
        reason: trimmed,
      }),
    );
  };

  return (
    <Modal
      open
      title={`Reject “${item.name}”`}
      okText="Reject"
      okButtonProps={{ danger: true }}
      cancelText="Cancel"
      confirmLoading={saving}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
    >
      <div className="request-form">
        <div className="request-field">
          <label htmlFor={id}>Reason (the client reads it)</label>
          <Input.TextArea
            id={id}
            value={reason}
            rows={3}
            maxLength={REQUEST_REASON_MAX}
            autoFocus
            onChange={(event) => setReason(event.target.value)}
          />
        </div>
        <RequestError
          message={
            problem ??
            (action.kind === 'reject' && action.status === 'failed' ? action.error : null)
          }
        />
      </div>
    </Modal>
  );
}

/** One item: its state, description, index values, uploads and review buttons. */
function ItemCard({
  request,
  item,
  busy,
  onReject,
}: {
  request: DocumentRequestDto;
  item: RequestItemDto;
  busy: boolean;
  onReject: () => void;
}) {
  const dispatch = useAppDispatch();
  const headingId = useId();
  return (
    <li className="request-item-card" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {item.name} <ItemStateTag state={item.state} />
      </h3>
      {item.description ? <p className="request-muted">{item.description}</p> : null}
      {item.index_values.length > 0 ? (
        <p className="request-index-line">
          {item.index_values.map((v) => `${v.name}: ${v.value}`).join(' · ')}
        </p>
      ) : null}
      {item.state === 'rejected' && item.reject_reason ? (
        <p className="request-reject-reason">Rejected: {item.reject_reason}</p>
      ) : null}
      {item.uploads.length > 0 ? (
        <ul className="request-uploads" aria-label={`Files for ${item.name}`}>
          {item.uploads.map((upload) => (
            <li key={upload.id}>
              <Link to={folderPath(request.target_folder_id)}>{upload.name}</Link>
              <span className="request-muted">
                {formatSize(upload.size)} · {upload.email} · {formatDate(upload.uploaded_at)}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="request-muted">No file yet.</p>
      )}
      {item.state === 'received' ? (
        <Space wrap>
          <Button
            type="primary"
            icon={<CheckOutlined aria-hidden />}
            disabled={busy}
            aria-label={`Accept ${item.name}`}
            onClick={() =>
              dispatch(
                documentRequestsActions.itemAcceptRequested({
                  requestId: request.id,
                  itemId: item.id,
                }),
              )
            }
          >
            Accept
          </Button>
          <Button
            danger
            icon={<CloseOutlined aria-hidden />}
            disabled={busy}
            aria-label={`Reject ${item.name}`}
            onClick={onReject}
          >
            Reject
          </Button>
        </Space>
      ) : null}
    </li>
  );
}

/** The header's facts of a request. */
function RequestFacts({ request }: { request: DocumentRequestDto }) {
  const detail = progressDetail(request.counts);
  return (
    <dl className="request-facts">
      <dt>Status</dt>
      <dd>
        <RequestStatusTag status={request.status} />
      </dd>
      <dt>Folder</dt>
      <dd>
        <Link to={folderPath(request.folder_id)}>{request.folder_name}</Link>
      </dd>
      <dt>Due date</dt>
      <dd>
        <DueDate day={request.due_date} overdue={request.overdue} />
      </dd>
      <dt>Progress</dt>
      <dd>
        {progressText(request.counts)}
        {detail ? ` (${detail})` : ''}
      </dd>
      <dt>Recipients</dt>
      <dd>
        <ul className="request-recipients">
          {request.recipients.map((r) => (
            <li key={r.email}>
              {r.email}{' '}
              <span className="request-muted">
                {r.opened_at ? `opened ${formatDate(r.opened_at)}` : 'not opened yet'}
              </span>
            </li>
          ))}
        </ul>
      </dd>
      <dt>Created by</dt>
      <dd>
        {request.created_by_name} on {formatDate(request.created_at)}
      </dd>
      {request.message ? (
        <>
          <dt>Message</dt>
          <dd className="request-message">{request.message}</dd>
        </>
      ) : null}
    </dl>
  );
}

/** The request page. */
export function RequestPage() {
  const dispatch = useAppDispatch();
  const { modal } = App.useApp();
  const { requestId = '' } = useParams();
  const detail = useAppSelector(selectRequestDetail);
  const action = useAppSelector(selectRequestAction);
  const [rejecting, setRejecting] = useState<string | null>(null);

  useEffect(() => {
    if (requestId) dispatch(documentRequestsActions.requestOpened({ requestId }));
  }, [dispatch, requestId]);

  const request = detail.requestId === requestId ? detail.request : null;
  const busy = action.status === 'loading';
  const back = <Link to={REQUESTS_ROUTE}>All requests</Link>;

  if (detail.requestId === requestId && detail.status === 'failed' && !request) {
    return (
      <div className="page request-page">
        <Result
          status="warning"
          title="This request could not be opened."
          subTitle={detail.error}
          extra={back}
        />
      </div>
    );
  }
  if (!request) {
    return (
      <div className="page request-page" role="status">
        <Spin description="Loading the request…" />
      </div>
    );
  }

  const open = request.status === 'open';
  const rejectedItem = request.items.find((item) => item.id === rejecting) ?? null;
  return (
    <div className="page request-page">
      <nav aria-label="Breadcrumb" className="request-back">
        <Link to={REQUESTS_ROUTE}>{REQUESTS_LABEL}</Link>
      </nav>
      <PageTitle
        extra={
          open ? (
            <Space wrap>
              <Button
                icon={<BellOutlined aria-hidden />}
                loading={busy && action.kind === 'remind'}
                disabled={busy}
                onClick={() =>
                  dispatch(documentRequestsActions.remindRequested({ requestId: request.id }))
                }
              >
                Remind
              </Button>
              <Button
                danger
                icon={<StopOutlined aria-hidden />}
                disabled={busy}
                onClick={() => {
                  void modal.confirm({
                    title: cancelConfirmTitle(request.title),
                    content: CANCEL_CONFIRM_TEXT,
                    okText: 'Cancel request',
                    okButtonProps: { danger: true },
                    cancelText: 'Keep it',
                    onOk: () => {
                      dispatch(documentRequestsActions.cancelRequested({ requestId: request.id }));
                    },
                  });
                }}
              >
                Cancel request
              </Button>
            </Space>
          ) : null
        }
      >
        {request.title}
      </PageTitle>
      <RequestFacts request={request} />
      <RequestError
        message={action.status === 'failed' && action.kind !== 'reject' ? action.error : null}
      />
      <h2 className="request-items-heading">Items</h2>
      <ul className="request-item-cards" aria-label="Requested items">
        {request.items.map((item) => (
          <ItemCard
            key={item.id}
            request={request}
            item={item}
            busy={busy}
            onReject={() => {
              dispatch(documentRequestsActions.actionDismissed());
              setRejecting(item.id);
            }}
          />
        ))}
      </ul>
      {rejectedItem ? (
        <RejectDialog
          request={request}
          item={rejectedItem}
          onClose={() => {
            setRejecting(null);
            dispatch(documentRequestsActions.actionDismissed());
          }}
        />
      ) : null}
    </div>
  );
}
