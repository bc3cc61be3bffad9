/**
 * The printable case file (/replay/:folderId/case-file?from&to): reads the case file of the
 * period as JSON (the server records it in History) and shows it as plain tables — the events
 * (time, user, what, what it changed) and the folder's contents at both ends — with a Print
 * button (window.print(); the print style sheet leaves out the app's shell and the buttons).
 */
import { PrinterOutlined } from '@ant-design/icons';
import { Button, Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import type { CaseFileItem } from '@common/replayViews';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { folderIdOfParam, replayPagePath } from '../replayLinks';
import { selectCaseFile } from '../replaySelectors';
import { caseFileKey, replayActions } from '../replaySlice';
import { COULD_NOT_LOAD_CASE_FILE, formatMoment } from '../replayTexts';
import { nextVisit } from './visits';
import './replay.css';

/** The contents of the folder at one end of the period. */
function StateTable({ caption, items }: { caption: string; items: readonly CaseFileItem[] }) {
  return (
    <div className="case-file-table-box">
      <table className="case-file-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Path</th>
            <th scope="col">Type</th>
            <th scope="col">Archived</th>
            <th scope="col">Index values</th>
            <th scope="col">Contacts</th>
            <th scope="col">Shares</th>
          </tr>
        </thead>
        <tbody>
          {items.length === 0 ? (
            <tr>
              <td colSpan={6}>Empty</td>
            </tr>
          ) : (
            items.map((item) => (
              <tr key={item.path}>
                <td>{item.path}</td>
                <td>{item.type === 'folder' ? 'Folder' : 'File'}</td>
                <td>{item.archived ? 'Yes' : 'No'}</td>
                <td>{item.index_values}</td>
                <td>{item.contacts}</td>
                <td>{item.shares}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

/** The page. */
export function CaseFilePage() {
  const dispatch = useAppDispatch();
  const { folderId: param } = useParams();
  const folderId = folderIdOfParam(param);
  const [search] = useSearchParams();
  const from = search.get('from') ?? '';
  const to = search.get('to') ?? '';
  const [visit] = useState(nextVisit);
  const caseFile = useAppSelector(selectCaseFile);
  const request = { folderId, from, to, visit };
  const key = caseFileKey(request);
  const mine = caseFile.key === key;

  const open = () => dispatch(replayActions.caseFileOpened({ folderId, from, to, visit }));
  useEffect(() => {
    dispatch(replayActions.caseFileOpened({ folderId, from, to, visit }));
  }, [dispatch, folderId, from, to, visit]);

  const back = (
    <Link
      className="no-print"
      to={replayPagePath(folderId, {
        moment: { as_of: to || null, event: null, before_event: null },
      })}
    >
      Back to the replay
    </Link>
  );
  if (mine && caseFile.status === 'failed') {
    return (
      <div className="page case-file-page">
        <Result
          status="warning"
          title={COULD_NOT_LOAD_CASE_FILE}
          subTitle={caseFile.error}
          extra={[
            <Button key="again" onClick={open}>
              Try again
            </Button>,
            <span key="back">{back}</span>,
          ]}
        />
      </div>
    );
  }
  const data = mine ? caseFile.data : null;
  if (!data) {
    return (
      <div className="page page-loading" role="status" aria-live="polite">
        <Spin description="Making the case file…" />
      </div>
    );
  }
  return (
    <div className="page case-file-page">
      <div className="case-file-head">
        <h1 className="case-file-title">Case file: {data.folder_name}</h1>
        <div className="case-file-actions no-print">
          {back}
          <Button
            type="primary"
            icon={<PrinterOutlined aria-hidden />}
            onClick={() => window.print()}
          >
            Print
          </Button>
        </div>
      </div>
      <p className="case-file-period">
        From {formatMoment(data.from)} to {formatMoment(data.to)} · {data.rows.length}{' '}
        {data.rows.length === 1 ? 'event' : 'events'}
      </p>
      <div className="case-file-table-box">
        <table className="case-file-table">
          <caption>Events</caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">User</th>
              <th scope="col">What</th>
              <th scope="col">Changes</th>
            </tr>
          </thead>
          <tbody>
            {data.rows.length === 0 ? (
              <tr>
                <td colSpan={4}>No events in this period.</td>
              </tr>
            ) : (
              data.rows.map((row, index) => (
                <tr key={index}>
                  <td>
                    <time dateTime={row.at}>{formatMoment(row.at)}</time>
                  </td>
                  <td>{row.user_name}</td>
                  <td>{row.summary}</td>
                  <td>{row.changes}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <StateTable caption={`At the start (${formatMoment(data.from)})`} items={data.state_from} />
      <StateTable caption={`At the end (${formatMoment(data.to)})`} items={data.state_to} />
    </div>
  );
}
