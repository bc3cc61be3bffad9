/**
 * The folder page's "Request documents" button: opens the create dialog, which is its own chunk
 * loaded on the first press. Shown only to members and administrators (never read-only members)
 * and never on the root; the folder page decides the root, this button the role.
 */
import { InboxOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { Suspense, useState } from 'react';
import { lazyNamed } from '@src/app/lazyNamed';
import { useAppSelector } from '@src/store/hooks';
import { selectCanRequestDocuments } from '../documentRequestsSelectors';

const CreateRequestDialog = lazyNamed(() => import('./CreateRequestDialog'), 'CreateRequestDialog');

/** Props of {@link RequestDocumentsButton}. */
export interface RequestDocumentsButtonProps {
  folderId: string;
  /** The folder's name ('' while it loads: the button waits for it). */
  folderName: string;
}

/** The button and, once pressed, the dialog. */
export function RequestDocumentsButton({ folderId, folderName }: RequestDocumentsButtonProps) {
  const allowed = useAppSelector(selectCanRequestDocuments);
  const [open, setOpen] = useState(false);
  if (!allowed) return null;
  return (
    <>
      <Button
        icon={<InboxOutlined aria-hidden />}
        disabled={folderName === ''}
        onClick={() => setOpen(true)}
      >
        Request documents
      </Button>
      {open ? (
        <Suspense fallback={null}>
          <CreateRequestDialog
            folderId={folderId}
            folderName={folderName}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
