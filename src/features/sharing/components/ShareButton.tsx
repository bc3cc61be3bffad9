/** The Share action of the side panel: opens the share dialog for the panel's item. */
import { ShareAltOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import type { EntityDto } from '@common/entities';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectIsGuest, selectShareDialog, selectSharingEnabled } from '../sharingSelectors';
import { sharingActions } from '../sharingSlice';
import { ShareDialog } from './ShareDialog';

/**
 * The Share button of the side panel and, while it is open for this item, the share dialog.
 * Nothing when the sharing flag is off or the user is a guest.
 */
export function ShareButton({ entity }: { entity: EntityDto }) {
  const dispatch = useAppDispatch();
  const enabled = useAppSelector(selectSharingEnabled);
  const guest = useAppSelector(selectIsGuest);
  const { target } = useAppSelector(selectShareDialog);
  if (!enabled || guest) return null;
  return (
    <>
      <Button
        icon={<ShareAltOutlined aria-hidden />}
        onClick={() =>
          dispatch(
            sharingActions.dialogOpened({ type: entity.type, id: entity.id, name: entity.name }),
          )
        }
      >
        Share
      </Button>
      {target?.id === entity.id ? <ShareDialog /> : null}
    </>
  );
}
