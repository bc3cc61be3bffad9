/** The firm switcher of the header, shown only to users of more than one database. */
import { Select } from 'antd';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { notificationsActions } from '../../notifications/notificationsSlice';
import { selectIsUploading } from '../../uploads/uploadsSelectors';
import {
  selectCanSwitchDatabase,
  selectCurrentDatabaseId,
  selectDatabases,
  selectSwitchDatabase,
} from '../sessionSelectors';
import { sessionActions } from '../sessionSlice';

/** A select of the user's firm databases; switching opens the new firm's home folder. */
export function FirmSwitcher() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const canSwitch = useAppSelector(selectCanSwitchDatabase);
  const databases = useAppSelector(selectDatabases);
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
        label: database.description || database.name,
      }))}
      onChange={(databaseId: string) => {
        if (databaseId === currentId) return;
        dispatch(sessionActions.databaseSwitchRequested({ databaseId }));
        void navigate('/home');
      }}
    />
  );
}
