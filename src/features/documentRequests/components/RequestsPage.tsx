/**
 * /requests: the firm's document requests. Two tabs, Open (the default; overdue first, as the
 * server sorts) and Closed (completed, cancelled, expired), kept in the address (`?status=closed`)
 * so a reload keeps the tab. Each row: title (a link to /requests/<id>; a click anywhere on the
 * row opens it too), folder (a link to its page), recipients, due date (red with an "Overdue"
 * tag), progress and status. On a phone the table scrolls sideways inside its own box.
 */
import { Empty, Spin, Table, Tabs, type TableColumnsType } from 'antd';
import { useEffect } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { DocumentRequestSummaryDto } from '@common/documentRequests';
import { PageTitle } from '@src/components/PageTitle';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { progressDetail, progressText } from '../checklist';
import type { RequestListTab } from '../documentRequestsApi';
import { selectRequestList } from '../documentRequestsSelectors';
import { documentRequestsActions } from '../documentRequestsSlice';
import {
  DueDate,
  folderPath,
  REQUESTS_LABEL,
  RequestError,
  RequestStatusTag,
  requestPath,
} from './requestParts';
import './documentRequests.css';

/** The empty state of each tab. */
export const NO_REQUESTS_TEXT: Record<RequestListTab, string> = {
  open: 'No open requests. Ask a client for documents with “Request documents” on a folder’s page.',
  closed: 'No closed requests yet.',
};

/** The tab the address names (`?status=closed`), Open otherwise. */
export function tabFromSearch(search: URLSearchParams): RequestListTab {
  return search.get('status') === 'closed' ? 'closed' : 'open';
}

const columns: TableColumnsType<DocumentRequestSummaryDto> = [
  {
    title: 'Title',
    key: 'title',
    render: (_value, request) => (
      <Link to={requestPath(request.id)} onClick={(event) => event.stopPropagation()}>
        {request.title}
      </Link>
    ),
  },
  {
    title: 'Folder',
    key: 'folder',
    render: (_value, request) => (
      <Link to={folderPath(request.folder_id)} onClick={(event) => event.stopPropagation()}>
        {request.folder_name}
      </Link>
    ),
  },
  {
    title: 'Recipients',
    key: 'recipients',
    render: (_value, request) => request.recipients.map((r) => r.email).join(', '),
  },
  {
    title: 'Due date',
    key: 'due',
    render: (_value, request) => <DueDate day={request.due_date} overdue={request.overdue} />,
  },
  {
    title: 'Progress',
    key: 'progress',
    render: (_value, request) => {
      const detail = progressDetail(request.counts);
      return (
        <span className="request-progress">
          {progressText(request.counts)}
          {detail ? <span className="request-muted">{detail}</span> : null}
        </span>
      );
    },
  },
  {
    title: 'Status',
    key: 'status',
    render: (_value, request) => <RequestStatusTag status={request.status} />,
  },
];

/** The list page. */
export function RequestsPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const list = useAppSelector(selectRequestList);
  const [search, setSearch] = useSearchParams();
  const tab = tabFromSearch(search);

  useEffect(() => {
    dispatch(documentRequestsActions.listRequested({ tab }));
  }, [dispatch, tab]);

  const shown = list.tab === tab ? list : null;
  const table =
    shown && shown.items.length > 0 ? (
      <div className="requests-table">
        <Table<DocumentRequestSummaryDto>
          rowKey="id"
          size="small"
          aria-label={tab === 'open' ? 'Open requests' : 'Closed requests'}
          columns={columns}
          dataSource={shown.items}
          pagination={false}
          scroll={{ x: 760 }}
          rowClassName={(request) =>
            request.overdue ? 'request-row request-row-overdue' : 'request-row'
          }
          onRow={(request) => ({ onClick: () => void navigate(requestPath(request.id)) })}
        />
      </div>
    ) : null;
  const body = (
    <>
      <RequestError message={shown?.status === 'failed' ? shown.error : null} />
      {!shown || (shown.status === 'loading' && shown.items.length === 0) ? (
        <div role="status">
          <Spin description="Loading requests…" />
        </div>
      ) : null}
      {shown?.status === 'succeeded' && shown.items.length === 0 ? (
        <Empty description={NO_REQUESTS_TEXT[tab]} />
      ) : null}
      {table}
    </>
  );

  return (
    <div className="page requests-page">
      <PageTitle>{REQUESTS_LABEL}</PageTitle>
      <Tabs
        activeKey={tab}
        onChange={(key) => setSearch(key === 'closed' ? { status: 'closed' } : {})}
        items={[
          { key: 'open', label: 'Open', children: tab === 'open' ? body : null },
          { key: 'closed', label: 'Closed', children: tab === 'closed' ? body : null },
        ]}
      />
    </div>
  );
}
