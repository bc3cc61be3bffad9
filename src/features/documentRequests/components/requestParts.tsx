/** Small parts shared by the advisor's request screens: tags, the error line, due dates, the message field. */
import { Alert, Input, Tag } from 'antd';
import {
  REQUEST_MESSAGE_MAX,
  DOCUMENT_REQUEST_STATUS_LABELS,
  REQUEST_ITEM_STATE_LABELS,
  type DocumentRequestStatus,
  type RequestItemState,
} from '@common/documentRequests';
import { formatDay } from '@common/retention';

/** The route of the request list. */
export const REQUESTS_ROUTE = '/requests';
/** The label of the navigation entry and the list's title. */
export const REQUESTS_LABEL = 'Requests';

/** The address of one request's page. */
export function requestPath(requestId: string): string {
  return `${REQUESTS_ROUTE}/${encodeURIComponent(requestId)}`;
}

/** The address of a folder's page. */
export function folderPath(folderId: string): string {
  return `/home/folders/${encodeURIComponent(folderId)}`;
}

const STATUS_COLORS: Record<DocumentRequestStatus, string> = {
  open: 'blue',
  completed: 'green',
  cancelled: 'default',
  expired: 'orange',
};

const ITEM_COLORS: Record<RequestItemState, string> = {
  missing: 'default',
  received: 'blue',
  accepted: 'green',
  rejected: 'red',
};

/** A request's status as a tag. */
export function RequestStatusTag({ status }: { status: DocumentRequestStatus }) {
  return <Tag color={STATUS_COLORS[status]}>{DOCUMENT_REQUEST_STATUS_LABELS[status]}</Tag>;
}

/** An item's state as a tag. */
export function ItemStateTag({ state }: { state: RequestItemState }) {
  return <Tag color={ITEM_COLORS[state]}>{REQUEST_ITEM_STATE_LABELS[state]}</Tag>;
}

/** The due day, in red with an "Overdue" tag when the request is overdue. */
export function DueDate({ day, overdue }: { day: string; overdue: boolean }) {
  return (
    <span className={overdue ? 'request-due overdue' : 'request-due'}>
      {formatDay(day) || day}
      {overdue ? (
        <>
          {' '}
          <Tag color="red">Overdue</Tag>
        </>
      ) : null}
    </span>
  );
}

/** The server's refusal or a check's message, announced. */
export function RequestError({ message }: { message: string | null | undefined }) {
  return message ? <Alert type="error" role="alert" showIcon title={message} /> : null;
}

/**
 * The optional message of a request or a template: a labelled text area of at most
 * REQUEST_MESSAGE_MAX characters.
 */
export function MessageField({
  id,
  value,
  disabled,
  onChange,
}: {
  id: string;
  value: string;
  disabled: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <div className="request-field">
      <label htmlFor={id}>Message (optional)</label>
      <Input.TextArea
        id={id}
        value={value}
        rows={3}
        maxLength={REQUEST_MESSAGE_MAX}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
