/**
 * The name link of a file row (folder view, collection pages, Shared by me): a file the viewer
 * can show (`isViewable`: what the browser shows safely, or a type document imaging makes a PDF
 * rendition of) opens in the in-app viewer over the page; any other file is downloaded. Also the
 * disabled Preview action and the texts shown where a preview is not offered, and the download
 * started from the keyboard.
 */
import { EyeOutlined } from '@ant-design/icons';
import { Button, Tooltip, type ButtonProps } from 'antd';
import type { ReactNode } from 'react';
import { VIEWER_MESSAGES } from '@common/imaging';
import { ViewerLink } from '@src/features/viewer/components/ViewerLink';
import { fileUrl } from '../entitiesApi';

/** Tooltip of a disabled Preview action: the file's type cannot be shown in the viewer. */
export const NO_PREVIEW_TEXT = VIEWER_MESSAGES.unsupported;

/** Title of a guest's file name that neither previews nor downloads. */
export const NO_PREVIEW_NO_DOWNLOAD_TEXT =
  'No preview for this file type, and downloading is not allowed for this share.';

/** The file a {@link FileNameLink} opens: any row view model with these fields. */
export interface FileNameLinkFile {
  id: string;
  name: string;
  /** Whether the file opens in the viewer (see the rows' `previewable`). */
  previewable: boolean;
}

/** Props of {@link FileNameLink}. */
export interface FileNameLinkProps {
  file: FileNameLinkFile;
  /** The link's class; 'entity-name' by default. */
  className?: string;
  tabIndex?: number;
  draggable?: boolean;
  /** The link's content; the file's name by default. */
  children?: ReactNode;
}

/**
 * A file's name as a link: to the viewer over the current page when `file.previewable`, otherwise
 * to its download (`download` set to the name, same tab: the answer is an attachment).
 *
 * @param props the file, and the class, tab index and draggability of the `<a>`
 * @returns the `<a>` element
 */
export function FileNameLink({
  file,
  className = 'entity-name',
  tabIndex,
  draggable,
  children,
}: FileNameLinkProps) {
  const content = children ?? file.name;
  if (file.previewable) {
    return (
      <ViewerLink fileId={file.id} className={className} tabIndex={tabIndex} draggable={draggable}>
        {content}
      </ViewerLink>
    );
  }
  return (
    <a
      className={className}
      href={fileUrl(file.id, 'download')}
      download={file.name}
      tabIndex={tabIndex}
      draggable={draggable}
    >
      {content}
    </a>
  );
}

/**
 * Starts a download without leaving the page: clicks a temporary `<a href download>` (the address
 * answers with Content-Disposition: attachment).
 *
 * @param url the download address, e.g. `fileUrl(id, 'download')`
 * @param fileName the name the browser saves the file under
 */
export function startDownload(url: string, fileName: string): void {
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.rel = 'noopener';
  anchor.style.display = 'none';
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
}

/** Props of {@link NoPreviewButton}: the look of the enabled Preview action it stands for. */
export interface NoPreviewButtonProps {
  /** The accessible name, e.g. "Preview Minutes.docx". */
  label?: string;
  type?: ButtonProps['type'];
  size?: ButtonProps['size'];
  className?: string;
  children?: ReactNode;
}

/**
 * The Preview action of a file the browser cannot show: kept in place (so the actions stay
 * aligned), disabled, and saying why ({@link NO_PREVIEW_TEXT}) on hover.
 *
 * @param props the button's accessible name, look and content
 * @returns the disabled button in a tooltip
 */
export function NoPreviewButton({ label, type, size, className, children }: NoPreviewButtonProps) {
  return (
    <Tooltip title={NO_PREVIEW_TEXT}>
      {/* The span lets the tooltip show over the disabled button. */}
      <span className="disabled-action">
        <Button
          type={type}
          size={size}
          className={className}
          icon={<EyeOutlined aria-hidden />}
          disabled
          aria-label={label}
        >
          {children}
        </Button>
      </span>
    </Tooltip>
  );
}
