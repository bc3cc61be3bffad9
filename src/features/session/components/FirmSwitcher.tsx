/**
 * The firm switcher of the header, shown only when the user has another firm to switch to (SPEC
 * section 3 "Database"); its select (FirmSelect.tsx) is a chunk loaded only then.
 */
import { Suspense } from 'react';
import { lazyNamed } from '@src/app/lazyNamed';
import { useAppSelector } from '@src/store/hooks';
import { selectCanSwitchDatabase } from '../sessionSelectors';

const FirmSelect = lazyNamed(() => import('./FirmSelect'), 'FirmSelect');

/** The firm select, or nothing for a user of one firm. */
export function FirmSwitcher() {
  const canSwitch = useAppSelector(selectCanSwitchDatabase);
  if (!canSwitch) return null;
  return (
    <Suspense fallback={null}>
      <FirmSelect />
    </Suspense>
  );
}
