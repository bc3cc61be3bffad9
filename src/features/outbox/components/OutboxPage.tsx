/**
 * /admin/outbox: the e-mail the server kept in its outbox (DATA_DIR/outbox)
 * because no SMTP_URL is configured — invitations among them — for administrators of the current
 * firm: a virtualised list of messages (time, recipient, subject), newest first, and the selected
 * message's text beside it. The selection is in the address (?message=<id>), so it survives a
 * reload and can be linked. Empty state: "No messages in the outbox.".
 */
import { CloseOutlined, MailOutlined, ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Empty, Spin } from 'antd';
import { memo, useCallback, useEffect, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { formatDate } from '@common/format';
import { plural } from '@common/text';
import { VirtualList } from '@src/components/VirtualList';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectCurrentDatabaseId } from '@src/features/session/sessionSelectors';
import type { OutboxSummaryDto } from '@common/outbox';
import { selectOutbox, selectOutboxMessage } from '../outboxSelectors';
import { outboxActions } from '../outboxSlice';
import './outbox.css';

/** The empty state's text. */
export const OUTBOX_EMPTY = 'No messages in the outbox.';
/** The address parameter holding the selected message's id. */
const MESSAGE_PARAM = 'message';

/** The count line: "1 message", "3 messages". */
export function outboxCountText(total: number): string {
  return `${total} ${plural(total, 'message')}`;
}

/**
 * A message's text with its http(s) addresses as links (opened in a new tab), so that an
 * administrator can follow an invitation link from here.
 */
function linkify(text: string): ReactNode[] {
  return text.split(/(https?:\/\/[^\s<>"]+)/g).map((part, index) =>
    index % 2 === 1 ? (
      <a key={index} href={part} target="_blank" rel="noopener noreferrer">
        {part}
      </a>
    ) : (
      part
    ),
  );
}

const OutboxRow = memo(function OutboxRow({
  message,
  selected,
  onSelect,
}: {
  message: OutboxSummaryDto;
  selected: boolean;
  onSelect: (id: string) => void;
}) {
  return (
    <div role="listitem" className="outbox-row-item">
      <button
        type="button"
        className={selected ? 'outbox-row selected' : 'outbox-row'}
        aria-current={selected ? 'true' : undefined}
        onClick={() => onSelect(message.id)}
      >
        {/* The name is the visible text, in its order (WCAG 2.5.3 label in name); the hidden
            separators keep the three cells apart when read aloud. */}
        <span className="outbox-cell outbox-time">{formatDate(message.created_at)}</span>
        <span className="visually-hidden">, to </span>
        <span className="outbox-cell outbox-to">{message.to}</span>
        <span className="visually-hidden">, </span>
        <span className="outbox-cell outbox-subject">{message.subject}</span>
      </button>
    </div>
  );
});

/** The selected message: its headers and its text. */
function MessageReader({ onClose }: { onClose: () => void }) {
  const dispatch = useAppDispatch();
  const { status, error, item } = useAppSelector(selectOutboxMessage);
  const selectedId = useAppSelector(selectOutbox).selectedId;
  let body;
  if (status === 'failed') {
    body = (
      <Alert
        type="error"
        role="alert"
        showIcon
        title={error}
        action={
          <Button size="small" onClick={() => dispatch(outboxActions.messageSelected(selectedId))}>
            Try again
          </Button>
        }
      />
    );
  } else if (!item) {
    body = (
      <div role="status">
        <Spin size="small" /> Loading the message…
      </div>
    );
  } else {
    body = (
      <>
        <h3 className="outbox-reader-subject">{item.subject}</h3>
        <dl className="outbox-headers">
          <dt>From</dt>
          <dd>{item.from}</dd>
          <dt>To</dt>
          <dd>{item.to}</dd>
          <dt>Time</dt>
          <dd>{formatDate(item.created_at)}</dd>
        </dl>
        <pre className="outbox-text" aria-label="Message text">
          {linkify(item.text)}
        </pre>
      </>
    );
  }
  return (
    <article className="outbox-reader" aria-label="Message">
      <div className="outbox-reader-bar">
        <Button
          size="small"
          type="text"
          icon={<CloseOutlined aria-hidden />}
          aria-label="Close the message"
          onClick={onClose}
        />
      </div>
      {body}
    </article>
  );
}

/** The admin section listing the mail outbox. */
export function OutboxPage() {
  const dispatch = useAppDispatch();
  const outbox = useAppSelector(selectOutbox);
  const databaseId = useAppSelector(selectCurrentDatabaseId);
  const [params, setParams] = useSearchParams();
  const selectedParam = params.get(MESSAGE_PARAM);

  useEffect(() => {
    dispatch(outboxActions.outboxRequested());
  }, [dispatch, databaseId]);

  useEffect(() => {
    if (selectedParam !== outbox.selectedId) {
      dispatch(outboxActions.messageSelected(selectedParam));
    }
  }, [dispatch, selectedParam, outbox.selectedId]);

  const select = useCallback((id: string) => setParams({ [MESSAGE_PARAM]: id }), [setParams]);
  const close = useCallback(() => setParams({}), [setParams]);
  const renderItem = useCallback(
    (message: OutboxSummaryDto) => (
      <OutboxRow message={message} selected={message.id === selectedParam} onSelect={select} />
    ),
    [selectedParam, select],
  );
  const itemKey = useCallback((message: OutboxSummaryDto) => message.id, []);
  const loadMore = useCallback(() => dispatch(outboxActions.outboxMoreRequested()), [dispatch]);

  let footer = null;
  if (outbox.more === 'loading') {
    footer = (
      <span role="status">
        <Spin size="small" /> Loading more messages…
      </span>
    );
  } else if (outbox.more === 'failed') {
    footer = (
      <span role="alert">
        {outbox.error}{' '}
        <Button size="small" onClick={loadMore}>
          Try again
        </Button>
      </span>
    );
  }

  let list;
  if (outbox.status === 'failed') {
    list = (
      <Alert
        type="error"
        role="alert"
        showIcon
        title={outbox.error}
        action={
          <Button size="small" onClick={() => dispatch(outboxActions.outboxRequested())}>
            Try again
          </Button>
        }
      />
    );
  } else if (outbox.status !== 'succeeded' && outbox.items.length === 0) {
    list = (
      <div className="list-loading" role="status">
        <Spin description="Loading the outbox…">
          <div className="list-loading-area" />
        </Spin>
      </div>
    );
  } else if (outbox.items.length === 0) {
    list = (
      <Empty
        image={<MailOutlined aria-hidden className="outbox-empty-icon" />}
        description={OUTBOX_EMPTY}
      />
    );
  } else {
    list = (
      <>
        <div className="outbox-row outbox-header-row" aria-hidden>
          <span className="outbox-cell">Time</span>
          <span className="outbox-cell">To</span>
          <span className="outbox-cell">Subject</span>
        </div>
        <div className="outbox-list">
          <VirtualList
            items={outbox.items}
            itemKey={itemKey}
            renderItem={renderItem}
            onEndReached={loadMore}
            footer={footer}
            role="list"
            ariaLabel="Outbox messages"
          />
        </div>
      </>
    );
  }

  return (
    <section className="admin-section" aria-label="Outbox">
      <div className="admin-toolbar">
        <span className="admin-count" role="status">
          {outbox.status === 'succeeded' ? outboxCountText(outbox.total) : ''}
        </span>
        <Button
          icon={<ReloadOutlined aria-hidden />}
          onClick={() => dispatch(outboxActions.outboxRequested())}
        >
          Refresh
        </Button>
      </div>
      <div className={selectedParam ? 'outbox-panes with-reader' : 'outbox-panes'}>
        <div className="outbox-list-pane">{list}</div>
        {selectedParam ? <MessageReader onClose={close} /> : null}
      </div>
    </section>
  );
}
