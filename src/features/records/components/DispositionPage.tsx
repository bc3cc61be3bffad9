/**
 * /admin/disposition: the files whose retention ended and that no legal hold covers, the oldest
 * end first (name, folder path, schedule, day it ended). Select some and approve their permanent
 * deletion after a confirmation; the page shows the deletion in progress, how many files were
 * deleted (a proof of each stays in History) or the server's refusal, and reads the queue again.
 */
import { DeleteOutlined, ReloadOutlined } from '@ant-design/icons';
import { Alert, App, Button, Empty, Spin, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState, type Key } from 'react';
import { plural } from '@common/text';
import { formatDay, type DispositionItemDto } from '@common/retention';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectApproval, selectDisposition } from '../recordsSelectors';
import { recordsActions } from '../recordsSlice';
import { RecordsError } from './RecordsCommon';

/** The section's path below /admin and its tab label. */
export const DISPOSITION_SECTION = { path: 'disposition', label: 'Disposition' } as const;

/** Shown when no file is due. */
const NO_DISPOSITION_TEXT =
  'No files are due for disposition. Files appear here once their retention has ended, unless a legal hold covers them.';

/** Title of the approval confirmation. */
function disposeConfirmTitle(count: number): string {
  return `Delete ${count} ${plural(count, 'file')} permanently?`;
}

/** Body of the approval confirmation. */
const DISPOSE_CONFIRM_TEXT =
  'The files and all their versions are removed for good. A proof of each deletion (name, size, sha256) stays in History. This cannot be undone.';

/** The result of an approval, in words. */
function disposedText(count: number): string {
  return `Deleted ${count} ${plural(count, 'file')} permanently. A proof of each deletion is in History.`;
}

const columns: ColumnsType<DispositionItemDto> = [
  { title: 'Name', dataIndex: 'name', key: 'name', ellipsis: false },
  { title: 'Folder', dataIndex: 'path', key: 'path' },
  { title: 'Schedule', dataIndex: 'schedule_name', key: 'schedule' },
  {
    title: 'Retention ended',
    dataIndex: 'ended_on',
    key: 'ended',
    render: (day: string) => formatDay(day),
  },
];

/** The admin section. */
export function DispositionPage() {
  const dispatch = useAppDispatch();
  const { modal } = App.useApp();
  const queue = useAppSelector(selectDisposition);
  const approval = useAppSelector(selectApproval);
  const [selected, setSelected] = useState<Key[]>([]);

  useEffect(() => {
    dispatch(recordsActions.approvalDismissed());
    dispatch(recordsActions.dispositionRequested());
  }, [dispatch]);

  // Files that left the queue leave the selection.
  useEffect(() => {
    const due = new Set(queue.items.map((item) => item.id));
    setSelected((keys) => {
      const kept = keys.filter((key) => due.has(String(key)));
      return kept.length === keys.length ? keys : kept;
    });
  }, [queue.items]);

  const deleting = approval.status === 'loading';
  const count = selected.length;

  const approve = () => {
    const fileIds = selected.map(String);
    void modal.confirm({
      title: disposeConfirmTitle(fileIds.length),
      content: DISPOSE_CONFIRM_TEXT,
      okText: 'Delete permanently',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      onOk: () => {
        dispatch(recordsActions.approvalRequested({ fileIds }));
      },
    });
  };

  return (
    <section className="records-page" aria-label={DISPOSITION_SECTION.label}>
      <h2>Disposition</h2>
      <p className="records-intro">
        Files whose retention has ended and that no legal hold covers
        {queue.today ? `, as of ${formatDay(queue.today)}` : ''}. Review them, then approve their
        permanent deletion.
      </p>
      <div className="records-toolbar">
        <Button
          danger
          type="primary"
          icon={<DeleteOutlined aria-hidden />}
          disabled={count === 0 || deleting}
          loading={deleting}
          onClick={approve}
        >
          {count === 0 ? 'Delete permanently' : `Delete ${count} permanently`}
        </Button>
        <Button
          icon={<ReloadOutlined aria-hidden />}
          disabled={queue.status === 'loading'}
          onClick={() => dispatch(recordsActions.dispositionRequested())}
        >
          Refresh
        </Button>
        {queue.status === 'succeeded' && queue.total > 0 ? (
          <span className="records-muted" role="status">
            {queue.total > queue.items.length
              ? `${queue.total} files due; the first ${queue.items.length} are listed.`
              : `${queue.total} ${plural(queue.total, 'file')} due.`}
          </span>
        ) : null}
      </div>
      <div aria-live="polite">
        {deleting ? (
          <div role="status">
            <Spin description={`Deleting ${count} ${plural(count, 'file')}…`} />
          </div>
        ) : null}
        {approval.status === 'succeeded' && approval.result ? (
          <Alert
            type="success"
            showIcon
            role="status"
            title={disposedText(approval.result.count)}
            closable
            onClose={() => dispatch(recordsActions.approvalDismissed())}
          />
        ) : null}
      </div>
      <RecordsError message={approval.status === 'failed' ? approval.error : null} />
      <RecordsError message={queue.status === 'failed' ? queue.error : null} />
      {queue.status === 'loading' && queue.items.length === 0 ? (
        <div role="status">
          <Spin description="Loading the disposition queue…" />
        </div>
      ) : null}
      {queue.status === 'succeeded' && queue.items.length === 0 ? (
        <Empty description={NO_DISPOSITION_TEXT} />
      ) : null}
      {queue.items.length > 0 ? (
        <Table<DispositionItemDto>
          rowKey="id"
          size="small"
          aria-label="Files due for disposition"
          columns={columns}
          dataSource={queue.items}
          pagination={false}
          scroll={{ x: 640 }}
          rowSelection={{
            selectedRowKeys: selected,
            onChange: (keys) => setSelected(keys),
            getCheckboxProps: (item) => ({ 'aria-label': `Select ${item.name}` }),
          }}
        />
      ) : null}
    </section>
  );
}
