/**
 * The side panel section linking CRM contacts to a folder (SPEC sections 3 and 7
 * "Contacts"): the linked contacts with their e-mail and phone numbers (national format for
 * country code 1, international otherwise), a search-as-you-type picker to link one and an
 * Unlink button per contact. Read-only members see the list only.
 */
import { Button, Select, Spin } from 'antd';
import { useEffect } from 'react';
import { CONTACT_MESSAGES, type FolderContactDto } from '@common/contacts';
import type { FolderDto } from '@common/entities';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import {
  selectCanLinkContacts,
  selectContactPicker,
  selectContacts,
  selectFolderContacts,
  selectPickerOptions,
} from '../contactsSelectors';
import { contactsActions } from '../contactsSlice';
import './contacts.css';

/** One linked contact: name, e-mail, phones and (for members) Unlink. */
function ContactRow({ link, canEdit }: { link: FolderContactDto; canEdit: boolean }) {
  const dispatch = useAppDispatch();
  const unlinking = useAppSelector(selectContacts).unlinking.includes(link.id);
  const phones = link.contact.phones_display.filter((p): p is string => p !== null);
  return (
    <li className="contact-row">
      <div className="contact-text">
        <span className="contact-name">{link.contact_name}</span>
        {link.contact.email ? (
          <a className="contact-email" href={`mailto:${link.contact.email}`}>
            {link.contact.email}
          </a>
        ) : null}
        {phones.map((phone) => (
          <span key={phone} className="contact-phone">
            {phone}
          </span>
        ))}
      </div>
      {canEdit ? (
        <Button
          size="small"
          loading={unlinking}
          aria-label={`Unlink ${link.contact_name}`}
          onClick={() =>
            dispatch(
              contactsActions.unlinkRequested({ linkId: link.id, contactId: link.contact_id }),
            )
          }
        >
          Unlink
        </Button>
      ) : null}
    </li>
  );
}

/** The picker: type part of a name, choose a contact to link it. */
function ContactPicker({ folder }: { folder: FolderDto }) {
  const dispatch = useAppDispatch();
  const picker = useAppSelector(selectContactPicker);
  const options = useAppSelector(selectPickerOptions);
  const { link } = useAppSelector(selectContacts);
  const searching = picker.status === 'loading';
  let notFound: React.ReactNode = null;
  if (searching) notFound = <Spin size="small" />;
  else if (picker.status === 'failed') notFound = picker.error;
  else if (picker.status === 'succeeded') notFound = 'No matching contacts.';
  return (
    <div className="contact-picker">
      <Select<string>
        showSearch
        aria-label="Link a contact"
        placeholder="Link a contact: type a name"
        value={null}
        searchValue={picker.query}
        filterOption={false}
        loading={searching || link.status === 'loading'}
        disabled={link.status === 'loading'}
        notFoundContent={notFound}
        onSearch={(text) => dispatch(contactsActions.pickerQueryChanged(text))}
        onSelect={(contactId: string) =>
          dispatch(contactsActions.linkRequested({ folderId: folder.id, contactId }))
        }
        options={options.map((contact) => {
          const detail = [contact.email, ...contact.phones_display.filter(Boolean)]
            .filter(Boolean)
            .join(' · ');
          return {
            value: contact.id,
            label: detail ? `${contact.name} (${detail})` : contact.name,
          };
        })}
        style={{ width: '100%' }}
      />
      {link.status === 'failed' ? (
        <p role="alert" className="contacts-error">
          {link.error}
        </p>
      ) : null}
    </div>
  );
}

/** The side panel section linking CRM contacts to a folder. */
export function FolderContactsSection({ folder }: { folder: FolderDto }) {
  const dispatch = useAppDispatch();
  const state = useAppSelector(selectFolderContacts);
  const { unlinkError } = useAppSelector(selectContacts);
  const canLink = useAppSelector(selectCanLinkContacts);
  const canEdit = canLink && folder.archived_at === null;

  useEffect(() => {
    dispatch(contactsActions.folderContactsRequested(folder.id));
  }, [dispatch, folder.id]);

  const current = state.folderId === folder.id;
  let body;
  if (!current || (state.status === 'loading' && state.items.length === 0)) {
    body = (
      <span role="status">
        <Spin size="small" /> Loading contacts…
      </span>
    );
  } else if (state.status === 'failed') {
    body = (
      <p role="alert" className="contacts-error">
        {state.error}{' '}
        <Button
          size="small"
          onClick={() => dispatch(contactsActions.folderContactsRequested(folder.id))}
        >
          Try again
        </Button>
      </p>
    );
  } else if (state.items.length === 0) {
    body = <p className="contacts-empty">{CONTACT_MESSAGES.noContacts}</p>;
  } else {
    body = (
      <ul className="contacts-list" aria-label="Linked contacts">
        {state.items.map((link) => (
          <ContactRow key={link.id} link={link} canEdit={canEdit} />
        ))}
      </ul>
    );
  }
  return (
    <section className="details-contacts" aria-label="Contacts" data-testid="folder-contacts">
      <h3 className="stats-title">Contacts</h3>
      {body}
      {unlinkError ? (
        <p role="alert" className="contacts-error">
          {unlinkError}
        </p>
      ) : null}
      {canEdit && current ? <ContactPicker folder={folder} /> : null}
    </section>
  );
}
