/**
 * The parts of the folder page that its first rows do not need, each its own chunk mounted once
 * it is first wanted: the "New folder" dialog (antd's Form) and an item's history panel.
 */
import { Suspense } from 'react';
import { lazyNamed } from '@src/app/lazyNamed';
import { useOnceTrue } from '@src/components/useOnceTrue';
import { useAppSelector } from '@src/store/hooks';
import { selectItemHistory } from '@src/features/history/historySelectors';
import { selectCreateFolder } from '../entitiesSelectors';

const CreateFolderDialog = lazyNamed(() => import('./CreateFolderDialog'), 'CreateFolderDialog');
const EntityHistoryDrawer = lazyNamed(
  () => import('@src/features/history/components/EntityHistoryDrawer'),
  'EntityHistoryDrawer',
);

/** The "New folder" dialog, from the first time it opens. */
export function CreateFolderDialogSlot() {
  const open = useAppSelector(selectCreateFolder).dialog === 'open';
  if (!useOnceTrue(open)) return null;
  return (
    <Suspense fallback={null}>
      <CreateFolderDialog />
    </Suspense>
  );
}

/** The history panel of an item, from the first time one is chosen. */
export function EntityHistoryDrawerSlot() {
  const chosen = useAppSelector(selectItemHistory).target !== null;
  if (!useOnceTrue(chosen)) return null;
  return (
    <Suspense fallback={null}>
      <EntityHistoryDrawer />
    </Suspense>
  );
}
