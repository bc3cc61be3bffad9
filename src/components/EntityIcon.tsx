/** The icon of a file or folder by its kind (SPEC section 3: "File icon kinds"). */
import {
  FileExcelOutlined,
  FileImageOutlined,
  FileOutlined,
  FilePdfOutlined,
  FilePptOutlined,
  FileTextOutlined,
  FolderFilled,
  SoundOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';
import { FOLDER_COLORS } from '@common/constants';
import type { FileKind } from '@common/files';

const ICONS: Record<FileKind, ComponentType<{ 'aria-hidden'?: boolean }>> = {
  folder: FolderFilled,
  image: FileImageOutlined,
  movie: VideoCameraOutlined,
  text: FileTextOutlined,
  pdf: FilePdfOutlined,
  spreadsheet: FileExcelOutlined,
  audio: SoundOutlined,
  presentation: FilePptOutlined,
  other: FileOutlined,
};

/** Props of {@link EntityIcon}. */
export interface EntityIconProps {
  kind: FileKind;
  /**
   * A folder's colour key for the current user (`FolderDto.color`): the glyph takes the palette's
   * dark shade. None, 'default' or an unknown key keep the default colour.
   */
  color?: string | null;
}

/**
 * Renders the kind's glyph. The wrapper carries `data-kind` and an accessible name equal to the
 * kind, so that assistive technology and tests can read it.
 */
export function EntityIcon({ kind, color }: EntityIconProps) {
  const Icon = ICONS[kind];
  const shade =
    kind === 'folder' && color && color !== 'default'
      ? FOLDER_COLORS.find((entry) => entry.key === color)
      : undefined;
  return (
    <span
      className={`entity-icon entity-icon-${kind}`}
      data-kind={kind}
      data-color={shade?.key}
      style={shade ? { color: shade.dark } : undefined}
      role="img"
      aria-label={kind}
    >
      <Icon aria-hidden />
    </span>
  );
}
