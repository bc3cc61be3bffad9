/**
 * The examiner's export form (administrators): what to export — the folder it was opened for,
 * a CRM contact's folders, the files and history of a date range, or the whole firm — and which
 * versions of the files; Export asks the server, starts the zip's download in the browser and shows
 * its progress. Used by the dialog of a folder's side panel and by Admin → Examiner export.
 */
import { DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, DatePicker, Radio, Select, Space, Spin } from 'antd';
import type { Dayjs } from 'dayjs';
import { useId, useState } from 'react';
import type { ExaminerScope, ExportVersions } from '@common/examinerExport';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectExaminerContacts, selectExaminerExport } from '../examinerExportSelectors';
import { examinerExportActions, isActive } from '../examinerExportSlice';
import { ExportProgress } from './ExportProgress';
import './examinerExport.css';

/** The scope kinds the form offers. */
type Choice = ExaminerScope['kind'];

/** The date range of the form: whole local days, the last one included. */
export function rangeScope(from: Dayjs, to: Dayjs): ExaminerScope {
  return {
    kind: 'date_range',
    start: from.startOf('day').toISOString(),
    end: to.add(1, 'day').startOf('day').toISOString(),
  };
}

/** The form; `folder` is the folder it was opened for (null: the admin page). */
export function ExaminerExportForm({ folder }: { folder: { id: string; name: string } | null }) {
  const dispatch = useAppDispatch();
  const state = useAppSelector(selectExaminerExport);
  const contacts = useAppSelector(selectExaminerContacts);
  const [choice, setChoice] = useState<Choice>(folder ? 'folder' : 'contact');
  const [contactId, setContactId] = useState<string | null>(null);
  const [from, setFrom] = useState<Dayjs | null>(null);
  const [to, setTo] = useState<Dayjs | null>(null);
  const [versions, setVersions] = useState<ExportVersions>('newest');
  const ids = { scope: useId(), versions: useId(), from: useId(), to: useId() };

  let scope: ExaminerScope | null = null;
  if (choice === 'folder' && folder) scope = { kind: 'folder', folder_id: folder.id };
  else if (choice === 'contact' && contactId) scope = { kind: 'contact', contact_id: contactId };
  else if (choice === 'date_range' && from && to && !to.isBefore(from, 'day')) {
    scope = rangeScope(from, to);
  } else if (choice === 'firm') scope = { kind: 'firm' };
  const busy = state.status === 'loading' || isActive(state.current);
  const rangeInverted = choice === 'date_range' && from && to && to.isBefore(from, 'day');

  let notFound: React.ReactNode = null;
  if (contacts.status === 'loading') notFound = <Spin size="small" />;
  else if (contacts.status === 'failed') notFound = contacts.error;
  else if (contacts.status === 'succeeded') notFound = 'No matching contacts.';

  return (
    <div className="examiner-form">
      <p className="examiner-intro">
        One zip for an examiner: the files at their folder paths, <code>index.csv</code> (path,
        size, sha256, index values, contacts), <code>history.csv</code> of the same scope and{' '}
        <code>manifest.json</code>, which the files and the history’s hash chain can be checked
        against. The export is recorded in History.
      </p>
      <fieldset className="examiner-fieldset">
        <legend id={ids.scope}>What to export</legend>
        <Radio.Group
          aria-labelledby={ids.scope}
          value={choice}
          onChange={(event) => setChoice(event.target.value as Choice)}
          className="examiner-choices"
        >
          {folder ? (
            <Radio value="folder">This folder, “{folder.name}”, and everything in it</Radio>
          ) : null}
          <Radio value="contact">The folders linked to a contact</Radio>
          <Radio value="date_range">Files created or changed, and history, in a date range</Radio>
          <Radio value="firm">The whole firm</Radio>
        </Radio.Group>
      </fieldset>
      {choice === 'contact' ? (
        <Select<string>
          showSearch
          aria-label="Contact"
          placeholder="Type a contact’s name"
          value={contactId}
          searchValue={contacts.query}
          filterOption={false}
          loading={contacts.status === 'loading'}
          notFoundContent={notFound}
          onSearch={(text) => dispatch(examinerExportActions.contactQueryChanged(text))}
          onChange={(value: string) => setContactId(value)}
          options={contacts.items.map((c) => ({
            value: c.id,
            label: c.detail ? `${c.name} (${c.detail})` : c.name,
          }))}
          className="examiner-wide"
        />
      ) : null}
      {choice === 'date_range' ? (
        <div className="examiner-dates">
          <label htmlFor={ids.from}>
            From
            <DatePicker id={ids.from} value={from} onChange={setFrom} className="examiner-wide" />
          </label>
          <label htmlFor={ids.to}>
            To (included)
            <DatePicker id={ids.to} value={to} onChange={setTo} className="examiner-wide" />
          </label>
          {rangeInverted ? (
            <p role="alert" className="examiner-error">
              The last day must not be before the first.
            </p>
          ) : null}
        </div>
      ) : null}
      <fieldset className="examiner-fieldset">
        <legend id={ids.versions}>Versions</legend>
        <Radio.Group
          aria-labelledby={ids.versions}
          value={versions}
          onChange={(event) => setVersions(event.target.value as ExportVersions)}
          className="examiner-choices"
        >
          <Radio value="newest">The newest version of each file</Radio>
          <Radio value="all">Every version of each file</Radio>
        </Radio.Group>
      </fieldset>
      <Space wrap>
        <Button
          type="primary"
          icon={<DownloadOutlined aria-hidden />}
          disabled={scope === null || busy}
          loading={state.status === 'loading'}
          onClick={() => {
            if (scope) dispatch(examinerExportActions.exportRequested({ scope, versions }));
          }}
        >
          Export
        </Button>
      </Space>
      {state.status === 'failed' && state.error ? (
        <Alert type="error" showIcon role="alert" title={state.error} />
      ) : null}
      {state.current ? (
        <ExportProgress current={state.current} progressError={state.progressError} />
      ) : null}
    </div>
  );
}
