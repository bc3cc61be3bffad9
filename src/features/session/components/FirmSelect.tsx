/**
 * The select of the firm switcher (FirmSwitcher.tsx): the user's databases with a description,
 * duplicates by description removed (SPEC section 3 "Database"). Its own chunk (antd's Select).
 */
import { Select } from 'antd';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { notificationsActions } from '@src/features/notifications/notificationsSlice';
import { selectIsUploading } from '@src/features/uploads/uploadsSelectors';
import {
  selectCanSwitchDatabase,
  selectCurrentDatabaseId,
  selectSwitchableDatabases,
  selectSwitchDatabase,
} from '../sessionSelectors';
import { sessionActions } from '../sessionSlice';

/** A select of the user's firm databases; switching opens the new firm's home folder. */
export function FirmSelect() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const canSwitch = useAppSelector(selectCanSwitchDatabase);
  const databases = useAppSelector(selectSwitchableDatabases);
  const currentId = useAppSelector(selectCurrentDatabaseId);
  const { status, error } = useAppSelector(selectSwitchDatabase);
  const uploading = useAppSelector(selectIsUploading);

  useEffect(() => {
    if (status === 'failed' && error) {
      dispatch(notificationsActions.infoMessageRequested({ text: error, kind: 'error' }));
    }
  }, [status, error, dispatch]);

  if (!canSwitch) return null;

  return (
    <Select
      className="firm-switcher"
      aria-label="Firm"
      title={uploading ? 'Wait for the uploads to finish before switching firms.' : undefined}
      value={currentId ?? undefined}
      loading={status === 'loading'}
      disabled={status === 'loading' || uploading}
      popupMatchSelectWidth={false}
      options={databases.map((database) => ({
        value: database.id,
        label: database.description?.trim() || database.name,
      }))}
      onChange={(databaseId: string) => {
        if (databaseId === currentId) return;
        dispatch(sessionActions.databaseSwitchRequested({ databaseId }));
        void navigate('/home');
      }}
    />
  );
}
