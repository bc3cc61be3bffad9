/**
 * The "Request documents" dialog of a folder: a title (default "Documents for <folder>"), a
 * template that fills the checklist and the message, the checklist editor, the message, the due
 * day (today or later, default 14 days ahead), the recipients (typed, or the e-mails of the
 * folder's linked contacts), the reminder, an optional password and whether the uploads go to a
 * subfolder. Checked with REQUEST_MESSAGES before sending (the server checks again and its
 * message is shown). Once sent: each recipient's link with a Copy button, and a warning when an
 * e-mail could not be sent.
 */
import { CopyOutlined } from '@ant-design/icons';
import {
  Alert,
  App,
  Button,
  Checkbox,
  DatePicker,
  Input,
  InputNumber,
  Modal,
  Select,
  Space,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import {
  REQUEST_MAX_RECIPIENTS,
  REQUEST_MESSAGES,
  REQUEST_REMINDER_DAYS_DEFAULT,
  type CreateDocumentRequestRequest,
  type CreateDocumentRequestResponse,
} from '@common/documentRequests';
import { useReturnFocus } from '@src/components/useReturnFocus';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import {
  checklistProblem,
  defaultRequestTitle,
  draftFromItems,
  draftItem,
  dueDateAllowed,
  itemsFromDraft,
  recipientsProblem,
  type DraftItem,
} from '../checklist';
import {
  selectChecklistFields,
  selectCreateRequest,
  selectRecipientOptions,
  selectRequestTemplates,
} from '../documentRequestsSelectors';
import { documentRequestsActions } from '../documentRequestsSlice';
import { MAIL_FAILED_TEXT } from '../documentRequestsSagas';
import { ChecklistEditor } from './ChecklistEditor';
import { MessageField, RequestError, requestPath } from './requestParts';
import './documentRequests.css';

/** Days ahead of today the due day starts at. */
export const DEFAULT_DUE_DAYS = 14;
/** Most days before the due day a reminder may go out. */
export const REMINDER_DAYS_MAX = 60;
/** The day format of the wire. */
const DAY = 'YYYY-MM-DD';

/** Props of {@link CreateRequestDialog}. */
export interface CreateRequestDialogProps {
  folderId: string;
  folderName: string;
  onClose: () => void;
}

/** The addresses typed or chosen: trimmed, lowercased, each once. */
export function normaliseRecipients(values: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const value of values) {
    const email = value.trim().toLowerCase();
    if (email) seen.add(email);
  }
  return [...seen];
}

/** The links of the created request, each with a Copy button. */
function CreatedLinks({
  result,
  onClose,
}: {
  result: CreateDocumentRequestResponse;
  onClose: () => void;
}) {
  const { message } = App.useApp();
  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      void message.success('Link copied.');
    } catch {
      void message.error('The link could not be copied; select it and copy it by hand.');
    }
  };
  return (
    <div className="request-created">
      <Alert
        type="success"
        showIcon
        title="Request sent."
        description="Each recipient gets an e-mail with their own link. You can also copy the links here."
      />
      {result.mail_failed ? (
        <Alert type="warning" role="alert" showIcon title={MAIL_FAILED_TEXT} />
      ) : null}
      <ul className="request-links" aria-label="Request links">
        {result.links.map((link) => (
          <li key={link.email}>
            <span className="request-link-email">{link.email}</span>
            <Space.Compact className="request-link-row">
              <Input
                readOnly
                value={link.url}
                aria-label={`Link for ${link.email}`}
                onFocus={(event) => event.target.select()}
              />
              <Button
                icon={<CopyOutlined aria-hidden />}
                aria-label={`Copy link for ${link.email}`}
                onClick={() => void copy(link.url)}
              >
                Copy
              </Button>
            </Space.Compact>
          </li>
        ))}
      </ul>
      <Link to={requestPath(result.request.id)} onClick={onClose}>
        Open the request
      </Link>
    </div>
  );
}

/** The dialog: the form, then the links once sent. */
export function CreateRequestDialog({ folderId, folderName, onClose }: CreateRequestDialogProps) {
  const dispatch = useAppDispatch();
  const create = useAppSelector(selectCreateRequest);
  const templates = useAppSelector(selectRequestTemplates);
  const fields = useAppSelector(selectChecklistFields);
  const recipientOptions = useAppSelector(selectRecipientOptions);
  const [title, setTitle] = useState(defaultRequestTitle(folderName));
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [items, setItems] = useState<DraftItem[]>(() => [draftItem()]);
  const [message, setMessage] = useState('');
  const [due, setDue] = useState<Dayjs | null>(() => dayjs().add(DEFAULT_DUE_DAYS, 'day'));
  const [recipients, setRecipients] = useState<string[]>([]);
  const [reminder, setReminder] = useState<number | null>(REQUEST_REMINDER_DAYS_DEFAULT);
  const [password, setPassword] = useState('');
  const [subfolder, setSubfolder] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const ids = {
    title: useId(),
    template: useId(),
    message: useId(),
    due: useId(),
    recipients: useId(),
    reminder: useId(),
    password: useId(),
    checklist: useId(),
  };
  const sending = create.status === 'loading';
  const result = create.status === 'succeeded' ? create.result : null;
  // The dialog unmounts when closed: the focus goes back to the button that opened it.
  useReturnFocus(true);

  useEffect(() => {
    dispatch(documentRequestsActions.createDialogOpened({ folderId }));
    return () => {
      dispatch(documentRequestsActions.createDialogClosed());
    };
  }, [dispatch, folderId]);

  const chooseTemplate = (id: string | null) => {
    setTemplateId(id);
    const template = templates.items.find((t) => t.id === id);
    if (!template) return;
    setItems(draftFromItems(template.items));
    setMessage(template.message);
  };

  const submit = () => {
    const today = dayjs().format(DAY);
    const day = due ? due.format(DAY) : '';
    const emails = normaliseRecipients(recipients);
    const found =
      checklistProblem(items) ??
      recipientsProblem(emails) ??
      (dueDateAllowed(day, today) ? null : REQUEST_MESSAGES.dueDateInvalid);
    setProblem(found);
    if (found) return;
    const trimmedMessage = message.trim();
    const body: CreateDocumentRequestRequest = {
      folder_id: folderId,
      title: title.trim() || defaultRequestTitle(folderName),
      items: itemsFromDraft(items),
      due_date: day,
      recipients: emails,
      subfolder,
      reminder_days_before: reminder ?? 0,
      ...(trimmedMessage ? { message: trimmedMessage } : {}),
      ...(password ? { password } : {}),
      ...(templateId ? { template_id: templateId } : {}),
    };
    dispatch(documentRequestsActions.createRequested(body));
  };

  const today = dayjs().startOf('day');
  return (
    <Modal
      open
      title="Request documents"
      onCancel={onClose}
      destroyOnHidden
      width={720}
      footer={
        result
          ? [
              <Button key="done" type="primary" onClick={onClose}>
                Done
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={onClose}>
                Cancel
              </Button>,
              <Button key="send" type="primary" loading={sending} onClick={submit}>
                Send request
              </Button>,
            ]
      }
    >
      {result ? (
        <CreatedLinks result={result} onClose={onClose} />
      ) : (
        <div className="request-form">
          <p className="request-muted">
            The client gets a link to upload a file for each item into “{folderName}”.
          </p>
          <div className="request-field">
            <label htmlFor={ids.title}>Title</label>
            <Input
              id={ids.title}
              value={title}
              maxLength={200}
              disabled={sending}
              onChange={(event) => setTitle(event.target.value)}
            />
          </div>
          <div className="request-field">
            <label htmlFor={ids.template}>Template (optional)</label>
            <Select<string>
              id={ids.template}
              allowClear
              value={templateId}
              disabled={sending}
              loading={templates.status === 'loading'}
              placeholder={
                templates.status === 'succeeded' && templates.items.length === 0
                  ? 'No templates'
                  : 'Start from a template'
              }
              onChange={(value) => chooseTemplate(value ?? null)}
              options={templates.items.map((t) => ({ value: t.id, label: t.name }))}
            />
          </div>
          <fieldset className="request-fieldset" aria-labelledby={ids.checklist}>
            <legend id={ids.checklist}>Checklist</legend>
            <ChecklistEditor
              items={items}
              onChange={setItems}
              fields={fields.items}
              disabled={sending}
            />
          </fieldset>
          <MessageField id={ids.message} value={message} disabled={sending} onChange={setMessage} />
          <div className="request-field">
            <label htmlFor={ids.recipients}>Recipients</label>
            <Select<string[]>
              id={ids.recipients}
              mode="tags"
              value={recipients}
              disabled={sending}
              tokenSeparators={[',', ';', ' ']}
              maxCount={REQUEST_MAX_RECIPIENTS}
              placeholder="name@example.com"
              onChange={(values) => setRecipients(normaliseRecipients(values))}
              options={recipientOptions}
              notFoundContent={null}
            />
            <span className="request-muted">
              Type e-mail addresses, or choose a contact linked to this folder.
            </span>
          </div>
          <div className="request-form-row">
            <div className="request-field">
              <label htmlFor={ids.due}>Due date</label>
              <DatePicker
                id={ids.due}
                value={due}
                allowClear={false}
                disabled={sending}
                format="MMM D, YYYY"
                disabledDate={(date) => date.isBefore(today)}
                onChange={(value) => setDue(value)}
              />
            </div>
            <div className="request-field">
              <label htmlFor={ids.reminder}>Reminder (days before due, 0 = none)</label>
              <InputNumber<number>
                id={ids.reminder}
                min={0}
                max={REMINDER_DAYS_MAX}
                precision={0}
                value={reminder}
                disabled={sending}
                onChange={(value) => setReminder(value)}
              />
            </div>
          </div>
          <div className="request-field">
            <label htmlFor={ids.password}>Password (optional)</label>
            <Input.Password
              id={ids.password}
              value={password}
              autoComplete="new-password"
              disabled={sending}
              onChange={(event) => setPassword(event.target.value)}
            />
          </div>
          <Checkbox
            checked={subfolder}
            disabled={sending}
            onChange={(event) => setSubfolder(event.target.checked)}
          >
            Put uploads in a subfolder for this request
          </Checkbox>
          <RequestError message={problem ?? (create.status === 'failed' ? create.error : null)} />
        </div>
      )}
    </Modal>
  );
}
