/**
 * The upload flow's conflict dialog (docs/architecture.md "File versions"): some picked files have
 * the names of files of the target folder, and the user chooses, for each, "Upload as new
 * version" (the file keeps its id, favorites, index values, contacts and shares) or "Keep both"
 * (SPEC section 5: the upload gets a numbered name), or skips it. One file: three buttons; several:
 * a choice per file (new version by default) and Upload. Closing the dialog (Esc, the close
 * button, Skip) uploads none of the conflicting files; the other files of the batch go on. A modal
 * dialog: the focus stays inside and returns to where it was; it fits a 360 px screen.
 */
import { Button, Modal, Radio } from 'antd';
import { useRef, useState } from 'react';
import { formatMessage } from '@common/messages';
import { VERSION_MESSAGES, type ConflictChoice } from '@common/versions';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectConflictPrompt } from '../uploadsSelectors';
import { uploadsActions, type ConflictPrompt } from '../uploadsSlice';
import './uploadConflict.css';

/** The options of a file's choice, in display order. */
const CHOICES: { value: ConflictChoice; label: string }[] = [
  { value: 'version', label: 'New version' },
  { value: 'keep_both', label: VERSION_MESSAGES.keepBoth },
  { value: 'skip', label: VERSION_MESSAGES.skip },
];

/** The dialog of one batch. */
function ConflictForm({ prompt }: { prompt: ConflictPrompt }) {
  const dispatch = useAppDispatch();
  const [choices, setChoices] = useState<Record<number, ConflictChoice>>(() =>
    Object.fromEntries(prompt.conflicts.map((conflict) => [conflict.key, 'version'])),
  );
  const answer = (all?: ConflictChoice) =>
    dispatch(
      uploadsActions.conflictsResolved({
        batchId: prompt.batchId,
        choices: all
          ? Object.fromEntries(prompt.conflicts.map((conflict) => [conflict.key, all]))
          : choices,
      }),
    );
  // The dialog takes the focus as it opens; then its primary answer does (Enter answers it).
  const primary = useRef<HTMLButtonElement>(null);
  const single = prompt.conflicts.length === 1 ? prompt.conflicts[0]! : null;
  const footer = single
    ? [
        <Button key="skip" onClick={() => answer('skip')}>
          {VERSION_MESSAGES.skip}
        </Button>,
        <Button key="keep" onClick={() => answer('keep_both')}>
          {VERSION_MESSAGES.keepBoth}
        </Button>,
        <Button key="version" type="primary" ref={primary} onClick={() => answer('version')}>
          {VERSION_MESSAGES.uploadAsVersion}
        </Button>,
      ]
    : [
        <Button key="skip" onClick={() => answer('skip')}>
          Skip all
        </Button>,
        <Button key="upload" type="primary" ref={primary} onClick={() => answer()}>
          Upload
        </Button>,
      ];
  return (
    <Modal
      open
      title={VERSION_MESSAGES.conflictTitle}
      onCancel={() => answer('skip')}
      afterOpenChange={(open) => {
        if (open) primary.current?.focus();
      }}
      footer={footer}
      className="upload-conflict-dialog"
      data-testid="upload-conflict-dialog"
    >
      <p>
        {single
          ? formatMessage(VERSION_MESSAGES.conflictOne, { name: single.fileName })
          : formatMessage(VERSION_MESSAGES.conflictMany, { count: prompt.conflicts.length })}
      </p>
      <p className="upload-conflict-help">{VERSION_MESSAGES.conflictHelp}</p>
      {single ? null : (
        <ul className="upload-conflict-list">
          {prompt.conflicts.map((conflict) => (
            <li key={conflict.key} className="upload-conflict-row">
              <span className="upload-conflict-name">{conflict.name}</span>
              <Radio.Group
                aria-label={`What to do with ${conflict.name}`}
                optionType="button"
                size="small"
                value={choices[conflict.key]}
                options={CHOICES}
                onChange={(event) =>
                  setChoices((current) => ({
                    ...current,
                    [conflict.key]: event.target.value as ConflictChoice,
                  }))
                }
              />
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}

/** The dialog, while a batch waits for the user's answer (the first one queued). */
export function UploadConflictDialog() {
  const prompt = useAppSelector(selectConflictPrompt);
  if (!prompt) return null;
  return <ConflictForm key={prompt.batchId} prompt={prompt} />;
}
