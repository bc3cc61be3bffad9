/**
 * /admin/request-templates: the firm's request templates (a name, a message and a checklist a
 * member starts a request from), with create, edit and delete (after a confirmation). The form
 * uses the request's checklist editor; the name and the checklist are checked with
 * REQUEST_MESSAGES before saving (the server checks again and its refusal is shown as it comes).
 */
import { PlusOutlined } from '@ant-design/icons';
import { App, Button, Empty, Input, Modal, Space, Spin } from 'antd';
import { useEffect, useId, useState } from 'react';
import {
  REQUEST_MESSAGES,
  type RequestTemplateDto,
  type RequestTemplateInput,
} from '@common/documentRequests';
import { useReturnFocus } from '@src/components/useReturnFocus';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import {
  checklistProblem,
  draftFromItems,
  draftItem,
  itemsFromDraft,
  type DraftItem,
} from '../checklist';
import {
  selectChecklistFields,
  selectRequestTemplates,
  selectTemplateChange,
} from '../documentRequestsSelectors';
import { documentRequestsActions } from '../documentRequestsSlice';
import { ChecklistEditor } from './ChecklistEditor';
import { MessageField, RequestError } from './requestParts';
import './documentRequests.css';

/** The section's path below /admin and its tab label. */
export const REQUEST_TEMPLATES_SECTION = {
  path: 'request-templates',
  label: 'Request templates',
} as const;

/** Shown when the firm has no template yet. */
export const NO_TEMPLATES_TEXT =
  'No request templates yet. A template fills a request’s checklist and message in one choice.';

/** Longest template name, in characters. */
const TEMPLATE_NAME_MAX = 200;

/** The form of a new template, or of an existing one (`template`). */
function TemplateDialog({
  template,
  onClose,
}: {
  template: RequestTemplateDto | null;
  onClose: () => void;
}) {
  const dispatch = useAppDispatch();
  const change = useAppSelector(selectTemplateChange);
  const fields = useAppSelector(selectChecklistFields);
  const [name, setName] = useState(template?.name ?? '');
  const [message, setMessage] = useState(template?.message ?? '');
  const [items, setItems] = useState<DraftItem[]>(() =>
    template ? draftFromItems(template.items) : [draftItem()],
  );
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { name: useId(), message: useId(), checklist: useId() };
  const saving = change.status === 'loading';
  useReturnFocus(true);

  const submit = () => {
    const trimmed = name.trim();
    const found =
      (trimmed === '' ? REQUEST_MESSAGES.templateNameRequired : null) ?? checklistProblem(items);
    setProblem(found);
    if (found) return;
    const body: RequestTemplateInput = {
      name: trimmed,
      message: message.trim(),
      items: itemsFromDraft(items),
    };
    if (template) {
      dispatch(documentRequestsActions.templateUpdateRequested({ id: template.id, changes: body }));
    } else {
      dispatch(documentRequestsActions.templateCreateRequested(body));
    }
  };

  return (
    <Modal
      open
      title={template ? `Edit “${template.name}”` : 'New request template'}
      okText={template ? 'Save' : 'Create'}
      cancelText="Cancel"
      confirmLoading={saving}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
      width={720}
    >
      <div className="request-form">
        <div className="request-field">
          <label htmlFor={ids.name}>Template name</label>
          <Input
            id={ids.name}
            value={name}
            maxLength={TEMPLATE_NAME_MAX}
            disabled={saving}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <MessageField id={ids.message} value={message} disabled={saving} onChange={setMessage} />
        <fieldset className="request-fieldset" aria-labelledby={ids.checklist}>
          <legend id={ids.checklist}>Checklist</legend>
          <ChecklistEditor
            items={items}
            onChange={setItems}
            fields={fields.items}
            disabled={saving}
          />
        </fieldset>
        <RequestError message={problem ?? (change.status === 'failed' ? change.error : null)} />
      </div>
    </Modal>
  );
}

/** One template's card. */
function TemplateCard({
  template,
  busy,
  onEdit,
}: {
  template: RequestTemplateDto;
  busy: boolean;
  onEdit: () => void;
}) {
  const dispatch = useAppDispatch();
  const { modal } = App.useApp();
  const headingId = useId();
  return (
    <li className="request-template-card" aria-labelledby={headingId}>
      <h3 id={headingId}>{template.name}</h3>
      {template.message ? <p className="request-muted">{template.message}</p> : null}
      <ol className="request-template-items" aria-label={`Items of ${template.name}`}>
        {template.items.map((item, index) => (
          <li key={`${index}-${item.name}`}>{item.name}</li>
        ))}
      </ol>
      <Space wrap>
        <Button onClick={onEdit} disabled={busy} aria-label={`Edit ${template.name}`}>
          Edit
        </Button>
        <Button
          danger
          disabled={busy}
          aria-label={`Delete ${template.name}`}
          onClick={() => {
            void modal.confirm({
              title: `Delete “${template.name}”?`,
              content: 'Requests already sent from it are not changed.',
              okText: 'Delete',
              okButtonProps: { danger: true },
              cancelText: 'Cancel',
              onOk: () => {
                dispatch(documentRequestsActions.templateDeleteRequested({ id: template.id }));
              },
            });
          }}
        >
          Delete
        </Button>
      </Space>
    </li>
  );
}

/** Which dialog of the section is open. */
type Dialog = { kind: 'create' } | { kind: 'edit'; template: RequestTemplateDto } | null;

/** The admin section. */
export function RequestTemplatesPage() {
  const dispatch = useAppDispatch();
  const templates = useAppSelector(selectRequestTemplates);
  const change = useAppSelector(selectTemplateChange);
  const [dialog, setDialog] = useState<Dialog>(null);

  useEffect(() => {
    dispatch(documentRequestsActions.templatesPageOpened());
  }, [dispatch]);

  // A dialog closes once its change succeeded.
  useEffect(() => {
    const waits = dialog?.kind === 'create' ? 'create' : dialog?.kind === 'edit' ? 'update' : null;
    if (waits && change.status === 'succeeded' && change.kind === waits) {
      setDialog(null);
      dispatch(documentRequestsActions.templateChangeDismissed());
    }
  }, [dialog, change, dispatch]);

  const close = () => {
    setDialog(null);
    dispatch(documentRequestsActions.templateChangeDismissed());
  };
  const busy = change.status === 'loading';

  return (
    <section className="request-templates-page" aria-label={REQUEST_TEMPLATES_SECTION.label}>
      <h2>Request templates</h2>
      <p className="request-muted">
        A template gives a document request its checklist and message. Members choose one when they
        request documents from a folder.
      </p>
      <div>
        <Button
          type="primary"
          icon={<PlusOutlined aria-hidden />}
          onClick={() => {
            dispatch(documentRequestsActions.templateChangeDismissed());
            setDialog({ kind: 'create' });
          }}
        >
          New template
        </Button>
      </div>
      {dialog === null && change.status === 'failed' ? (
        <RequestError message={change.error} />
      ) : null}
      {templates.status === 'failed' ? <RequestError message={templates.error} /> : null}
      {templates.status === 'loading' && templates.items.length === 0 ? (
        <div role="status">
          <Spin description="Loading request templates…" />
        </div>
      ) : null}
      {templates.status === 'succeeded' && templates.items.length === 0 ? (
        <Empty description={NO_TEMPLATES_TEXT} />
      ) : null}
      {templates.items.length > 0 ? (
        <ul className="request-template-cards" aria-label="Templates">
          {templates.items.map((template) => (
            <TemplateCard
              key={template.id}
              template={template}
              busy={busy}
              onEdit={() => {
                dispatch(documentRequestsActions.templateChangeDismissed());
                setDialog({ kind: 'edit', template });
              }}
            />
          ))}
        </ul>
      ) : null}
      {dialog?.kind === 'create' ? <TemplateDialog template={null} onClose={close} /> : null}
      {dialog?.kind === 'edit' ? (
        <TemplateDialog template={dialog.template} onClose={close} />
      ) : null}
    </section>
  );
}
