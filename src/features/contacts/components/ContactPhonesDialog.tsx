/**
 * The administrator's editor of one contact's phone numbers (SPEC section 3 "Phone number",
 * section 5 "Phone numbers", section 8 error kinds): one input per number, each limited to 250
 * characters and checked with parsePhone as the server checks it (not a number, too short, too
 * long, invalid country, each shown with its message under the number), the display the number
 * will have, Add and Remove, then PATCH REST/private/contacts/{id}.
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Input, Modal } from 'antd';
import { useId, useState } from 'react';
import { CONTACT_PHONES_MAX, type ContactDto } from '@common/contacts';
import {
  PHONE_ERROR_MESSAGES,
  PHONE_INPUT_MAX_LENGTH,
  formatPhone,
  parsePhone,
  phoneInputText,
} from '@common/phone';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectContactPhonesEdit } from '../contactsSelectors';
import { contactsActions } from '../contactsSlice';

/** What one typed phone is: blank, refused with the message of its error kind, or shown as. */
export type PhoneCheck =
  { kind: 'blank' } | { kind: 'refused'; message: string } | { kind: 'ok'; display: string | null };

/**
 * Checks one typed phone as the server will.
 * @param text the phone as typed
 * @returns blank, the message of its error kind, or the display it will have
 */
function checkPhoneText(text: string): PhoneCheck {
  if (text.trim() === '') return { kind: 'blank' };
  const result = parsePhone(text.trim());
  if (!result.ok) return { kind: 'refused', message: PHONE_ERROR_MESSAGES[result.error] };
  return { kind: 'ok', display: formatPhone(result.phone) };
}

/** One key per input, so that removing one keeps the others' state. */
interface PhoneDraft {
  key: number;
  text: string;
  /** The check is shown once the input was left or a save was tried. */
  touched: boolean;
}

function PhoneRow({
  draft,
  position,
  onChange,
  onBlur,
  onRemove,
}: {
  draft: PhoneDraft;
  position: number;
  onChange: (text: string) => void;
  onBlur: () => void;
  onRemove: () => void;
}) {
  const hintId = useId();
  const check = checkPhoneText(draft.text);
  const refused = draft.touched && check.kind === 'refused';
  return (
    <li className="contact-phone-row">
      <div className="contact-phone-input">
        <Input
          aria-label={`Phone ${position}`}
          aria-invalid={refused}
          aria-describedby={hintId}
          status={refused ? 'error' : undefined}
          maxLength={PHONE_INPUT_MAX_LENGTH}
          placeholder="+1 213 373 4253"
          value={draft.text}
          onChange={(event) => onChange(event.target.value)}
          onBlur={onBlur}
        />
        <Button
          type="text"
          icon={<DeleteOutlined aria-hidden />}
          aria-label={`Remove phone ${position}`}
          onClick={onRemove}
        />
      </div>
      <div id={hintId} className="contact-phone-hint">
        {refused && check.kind === 'refused' ? (
          <span className="ant-form-item-explain-error" role="alert">
            {check.message}
          </span>
        ) : check.kind === 'ok' && check.display ? (
          <span className="admin-muted">Shown as {check.display}</span>
        ) : null}
      </div>
    </li>
  );
}

function PhonesEditor({ contact }: { contact: ContactDto }) {
  const dispatch = useAppDispatch();
  const edit = useAppSelector(selectContactPhonesEdit);
  const [drafts, setDrafts] = useState<PhoneDraft[]>(() =>
    contact.phones.map((phone, key) => ({ key, text: phoneInputText(phone), touched: true })),
  );
  const [nextKey, setNextKey] = useState(contact.phones.length);
  const update = (key: number, change: Partial<PhoneDraft>) =>
    setDrafts((all) => all.map((draft) => (draft.key === key ? { ...draft, ...change } : draft)));
  const close = () => dispatch(contactsActions.phonesEditClosed());
  const save = () => {
    setDrafts((all) => all.map((draft) => ({ ...draft, touched: true })));
    if (drafts.some((draft) => checkPhoneText(draft.text).kind === 'refused')) return;
    const phones = drafts.map((draft) => draft.text.trim()).filter((text) => text !== '');
    dispatch(contactsActions.phonesSaveRequested({ contactId: contact.id, phones }));
  };
  const add = () => {
    setDrafts((all) => [...all, { key: nextKey, text: '', touched: false }]);
    setNextKey(nextKey + 1);
  };
  return (
    <Modal
      open
      title={`Phone numbers of ${contact.name}`}
      okText="Save"
      onOk={save}
      confirmLoading={edit.status === 'loading'}
      onCancel={close}
      destroyOnHidden
    >
      <p className="admin-muted">
        Start each number with + and its country code, e.g. +1 213 373 4253 or +44 20 7946 0958.
      </p>
      {drafts.length === 0 ? <p>No phone numbers.</p> : null}
      <ul className="contact-phones" aria-label="Phone numbers">
        {drafts.map((draft, index) => (
          <PhoneRow
            key={draft.key}
            draft={draft}
            position={index + 1}
            onChange={(text) => update(draft.key, { text })}
            onBlur={() => update(draft.key, { touched: true })}
            onRemove={() => setDrafts((all) => all.filter((other) => other.key !== draft.key))}
          />
        ))}
      </ul>
      <Button
        icon={<PlusOutlined aria-hidden />}
        disabled={drafts.length >= CONTACT_PHONES_MAX}
        onClick={add}
      >
        Add a phone number
      </Button>
      {edit.status === 'failed' ? (
        <Alert
          className="contact-phones-error"
          type="error"
          role="alert"
          showIcon
          title={edit.error}
        />
      ) : null}
    </Modal>
  );
}

/** The editor of the contact being edited, if any (mounted once on the contacts admin page). */
export function ContactPhonesDialog({ contacts }: { contacts: readonly ContactDto[] }) {
  const edit = useAppSelector(selectContactPhonesEdit);
  const contact = contacts.find((item) => item.id === edit.contactId);
  return contact ? <PhonesEditor key={contact.id} contact={contact} /> : null;
}
