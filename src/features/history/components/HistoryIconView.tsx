/** The glyph of a history entry's icon (common/history.ts HistoryIcon). */
import {
  CopyOutlined,
  DeleteOutlined,
  DisconnectOutlined,
  DownloadOutlined,
  EditOutlined,
  EyeOutlined,
  InboxOutlined,
  InfoCircleOutlined,
  LinkOutlined,
  LockOutlined,
  LoginOutlined,
  LogoutOutlined,
  PlusCircleOutlined,
  PrinterOutlined,
  RollbackOutlined,
  ShareAltOutlined,
  StarFilled,
  StarOutlined,
  SwapOutlined,
  TagOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';
import type { HistoryIcon } from '@common/history';

const GLYPHS: Record<HistoryIcon, ComponentType<{ 'aria-hidden'?: boolean }>> = {
  add: PlusCircleOutlined,
  edit: EditOutlined,
  move: SwapOutlined,
  copy: CopyOutlined,
  archive: InboxOutlined,
  restore: RollbackOutlined,
  delete: DeleteOutlined,
  download: DownloadOutlined,
  preview: EyeOutlined,
  print: PrinterOutlined,
  star: StarFilled,
  unstar: StarOutlined,
  link: LinkOutlined,
  unlink: DisconnectOutlined,
  permission: LockOutlined,
  share: ShareAltOutlined,
  index: TagOutlined,
  login: LoginOutlined,
  logout: LogoutOutlined,
  info: InfoCircleOutlined,
};

/** Props of {@link HistoryIconView}. */
export interface HistoryIconViewProps {
  icon: HistoryIcon;
}

/** Renders the entry's icon; decorative, since the summary says what happened. */
export function HistoryIconView({ icon }: HistoryIconViewProps) {
  const Glyph = GLYPHS[icon] ?? InfoCircleOutlined;
  return (
    <span className={`history-icon history-icon-${icon}`} data-icon={icon} aria-hidden>
      <Glyph aria-hidden />
    </span>
  );
}
