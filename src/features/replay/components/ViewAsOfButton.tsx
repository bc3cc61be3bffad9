/**
 * The folder page's "View as of…" button: opens the Replay page of the folder (now, ready to step
 * back along its timeline). Members and administrators only (guests never see the folder page's
 * toolbar).
 */
import { FieldTimeOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useNavigate } from 'react-router';
import { replayPagePath } from '../replayLinks';
import { VIEW_AS_OF_LABEL } from '../replayTexts';

/** Props of {@link ViewAsOfButton}. */
export interface ViewAsOfButtonProps {
  /** The folder shown ('' is the root). */
  folderId: string;
}

/** The button. */
export function ViewAsOfButton({ folderId }: ViewAsOfButtonProps) {
  const navigate = useNavigate();
  return (
    <Button
      icon={<FieldTimeOutlined aria-hidden />}
      onClick={() => void navigate(replayPagePath(folderId))}
    >
      {VIEW_AS_OF_LABEL}
    </Button>
  );
}
