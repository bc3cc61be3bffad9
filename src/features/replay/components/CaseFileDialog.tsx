/**
 * The case file dialog of the Replay page: a period (from and to, date and time) and two ways to
 * take the folder's timeline of that period with the state at both ends: "Download CSV" (read by
 * the sagas and saved by the browser, recorded in History by the server; a refusal shows the
 * server's message and keeps the dialog open) and "Printable page" (the page at
 * /replay/:folderId/case-file, which reads the JSON and records it too).
 */
import { Button, DatePicker, Modal } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { REPLAY_MESSAGES } from '@common/replayViews';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { caseFilePagePath } from '../replayLinks';
import { selectCaseFileCsv } from '../replaySelectors';
import { replayActions } from '../replaySlice';
import { MOMENT_FORMAT } from '../replayTexts';

/** The dialog's title (and its opening button's label). */
export const CASE_FILE_TITLE = 'Case file';

/** Props of {@link CaseFileDialog}. */
export interface CaseFileDialogProps {
  folderId: string;
  /** The period offered first (ISO times). */
  from: string;
  to: string;
  onClose: () => void;
}

type Range = [Dayjs | null, Dayjs | null] | null;

/** The dialog (rendered while open). */
export function CaseFileDialog({ folderId, from, to, onClose }: CaseFileDialogProps) {
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const csv = useAppSelector(selectCaseFileCsv);
  useEffect(() => {
    dispatch(replayActions.caseFileDialogOpened());
  }, [dispatch]);
  // Saved (by this dialog's request): the browser has the file, the dialog's work is done.
  const requested = useRef(false);
  useEffect(() => {
    if (requested.current && csv.status === 'ready') onClose();
  }, [csv.status, onClose]);
  const [range, setRange] = useState<Range>([dayjs(from), dayjs(to)]);
  const start = range?.[0] ?? null;
  const end = range?.[1] ?? null;
  const complete = start !== null && end !== null;
  const ordered = complete && start.valueOf() < end.valueOf();
  const period = ordered ? { from: start.toISOString(), to: end.toISOString() } : null;
  return (
    <Modal
      open
      title={CASE_FILE_TITLE}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose}>
          Cancel
        </Button>,
        <Button
          key="csv"
          disabled={!period}
          loading={csv.status === 'loading'}
          onClick={() => {
            if (!period) return;
            requested.current = true;
            dispatch(replayActions.caseFileCsvRequested({ folderId, ...period }));
          }}
        >
          Download CSV
        </Button>,
        <Button
          key="print"
          type="primary"
          disabled={!period}
          onClick={() => {
            if (!period) return;
            onClose();
            void navigate(caseFilePagePath(folderId, period.from, period.to));
          }}
        >
          Printable page
        </Button>,
      ]}
    >
      <p className="replay-muted">
        Every event of this folder between the two moments, who did it and what it changed, with the
        folder’s contents at both ends.
      </p>
      <DatePicker.RangePicker
        className="replay-range"
        aria-label="Period"
        showTime
        format={MOMENT_FORMAT}
        classNames={{ popup: { root: 'replay-picker-popup' } }}
        allowClear={false}
        value={range}
        onChange={(value) => setRange(value)}
      />
      {complete && !ordered ? (
        <p className="replay-error" role="alert">
          {REPLAY_MESSAGES.badPeriod}
        </p>
      ) : csv.status === 'failed' ? (
        <p className="replay-error" role="alert">
          {csv.error}
        </p>
      ) : null}
    </Modal>
  );
}
