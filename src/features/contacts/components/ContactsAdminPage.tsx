/**
 * /admin/contacts: the administrator's CSV import of CRM contacts (a file picker
 * read as text in the browser, then POST REST/private/contacts/import; the answer's created and
 * updated counts and its rejected lines with their reasons) and the firm's contacts as a
 * searchable list (search as you type; at most 50, exact and prefix matches first), where each
 * contact's phone numbers can be edited (ContactPhonesDialog).
 */
import { PhoneOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Input, Table, Upload } from 'antd';
import { useEffect } from 'react';
import {
  CONTACT_CSV_COLUMNS,
  CONTACT_MESSAGES,
  CONTACT_SEARCH_LIMIT,
  CONTACT_SEARCH_MAX,
  type ContactDto,
} from '@common/contacts';
import { plural } from '@common/text';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectAdminContacts, selectContactImport } from '../contactsSelectors';
import { contactsActions } from '../contactsSlice';
import { ContactPhonesDialog } from './ContactPhonesDialog';
import './contacts.css';

/**
 * Reads a chosen file as text (FileReader, so the File never reaches the store).
 * @returns the file's text
 */
export function readFileText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error(CONTACT_MESSAGES.csvUnreadable));
    reader.readAsText(file);
  });
}

/** The CSV import: file picker, progress, counts and rejected lines. */
function ContactImport() {
  const dispatch = useAppDispatch();
  const state = useAppSelector(selectContactImport);
  const { result } = state;
  return (
    <section className="contacts-admin-section" aria-label="Import contacts">
      <h2>Import contacts from CSV</h2>
      <p className="admin-muted">
        The first line names the columns: {CONTACT_CSV_COLUMNS.join(', ')} (only name is required;
        several phone numbers in one cell are separated by “;” and start with + and the country
        code). A contact with a CRM id updates the contact with that id; one without updates the
        contact of the same name and e-mail.
      </p>
      <Upload
        accept=".csv,text/csv"
        showUploadList={false}
        beforeUpload={(file) => {
          void readFileText(file).then(
            (csv) => dispatch(contactsActions.importRequested({ fileName: file.name, csv })),
            () => dispatch(contactsActions.importFailed(CONTACT_MESSAGES.csvUnreadable)),
          );
          return false;
        }}
      >
        <Button icon={<UploadOutlined aria-hidden />} loading={state.status === 'loading'}>
          Choose a CSV file
        </Button>
      </Upload>
      {state.status === 'loading' ? <p role="status">Importing {state.fileName}…</p> : null}
      {state.status === 'failed' ? (
        <Alert type="error" role="alert" showIcon title={state.error} />
      ) : null}
      {result ? (
        <div role="status" aria-label="Import result">
          <Alert
            type={result.rejected.length === 0 ? 'success' : 'warning'}
            showIcon
            title={`${state.fileName ?? 'The file'}: ${result.created} created, ${result.updated} updated, ${result.rejected.length} rejected.`}
          />
          {result.rejected.length > 0 ? (
            <ul className="contacts-rejected" aria-label="Rejected lines">
              {result.rejected.map((r) => (
                <li key={r.line}>
                  Line {r.line}: {r.reason}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

const columns = [
  { title: 'Name', dataIndex: 'name', key: 'name' },
  {
    title: 'E-mail',
    dataIndex: 'email',
    key: 'email',
    render: (email: string | null) => email ?? '',
  },
  {
    title: 'Phone numbers',
    key: 'phones',
    render: (_: unknown, contact: ContactDto) =>
      contact.phones_display.filter((p): p is string => p !== null).join(', '),
  },
  {
    title: 'CRM id',
    dataIndex: 'crm_id',
    key: 'crm_id',
    // Hidden on a phone (admin.css).
    className: 'admin-col-wide',
    render: (id: string | null) => id ?? '',
  },
  {
    title: 'Actions',
    key: 'actions',
    render: (_: unknown, contact: ContactDto) => <EditPhonesButton contact={contact} />,
  },
];

/** Opens the phone numbers editor of a contact. */
function EditPhonesButton({ contact }: { contact: ContactDto }) {
  const dispatch = useAppDispatch();
  return (
    <Button
      size="small"
      icon={<PhoneOutlined aria-hidden />}
      aria-label={`Edit phone numbers of ${contact.name}`}
      onClick={() => dispatch(contactsActions.phonesEditOpened({ contactId: contact.id }))}
    >
      Edit phones
    </Button>
  );
}

/** The firm's contacts, searchable. */
function ContactList() {
  const dispatch = useAppDispatch();
  const list = useAppSelector(selectAdminContacts);
  return (
    <section className="contacts-admin-section" aria-label="Contacts list">
      <h2>Contacts</h2>
      <Input.Search
        aria-label="Search contacts"
        placeholder="Search by name"
        allowClear
        maxLength={CONTACT_SEARCH_MAX}
        value={list.query}
        onChange={(event) => dispatch(contactsActions.adminSearchChanged(event.target.value))}
        style={{ maxWidth: 360, marginBottom: 12 }}
      />
      {list.status === 'failed' ? (
        <Alert
          type="error"
          role="alert"
          showIcon
          title={list.error}
          action={
            <Button
              size="small"
              onClick={() => dispatch(contactsActions.adminSearchChanged(list.query))}
            >
              Try again
            </Button>
          }
        />
      ) : (
        <>
          <Table<ContactDto>
            rowKey="id"
            size="small"
            aria-label="Contacts"
            columns={columns}
            dataSource={list.items}
            loading={list.status === 'loading'}
            pagination={false}
            locale={{
              emptyText: list.answered
                ? `No contacts match “${list.answered}”.`
                : 'No contacts yet. Import a CSV file or connect your CRM.',
            }}
          />
          {list.items.length >= CONTACT_SEARCH_LIMIT ? (
            <p className="admin-muted">
              Showing the first {CONTACT_SEARCH_LIMIT} {plural(CONTACT_SEARCH_LIMIT, 'contact')};
              type more of a name to narrow the list.
            </p>
          ) : null}
        </>
      )}
      <ContactPhonesDialog contacts={list.items} />
    </section>
  );
}

/** The admin section importing contacts from CSV, with the firm's searchable contact list. */
export function ContactsAdminPage() {
  const dispatch = useAppDispatch();
  useEffect(() => {
    dispatch(contactsActions.adminSearchChanged(''));
  }, [dispatch]);
  return (
    <div className="contacts-admin">
      <ContactImport />
      <ContactList />
    </div>
  );
}
