/**
 * An item's picture in a list: a file's first-page thumbnail when document imaging stored one
 * (the list's DTO says so), else the type icon (EntityIcon). Small beside the name in the list
 * layout, large on the card in the grid layout (the enclosing list's ListLayoutContext). The image
 * is decorative (`alt=""`: the name is next to it), loaded lazily and decoded off the main thread;
 * an image that cannot be loaded falls back to the icon. A file listed without a thumbnail whose
 * derivation is still to come (`awaited`) is watched while shown: the imaging saga asks about it
 * until it settles, and the thumbnail replaces the icon without the list being read again.
 */
import { useEffect, useState } from 'react';
import type { FileKind } from '@common/files';
import { EntityIcon } from '@src/components/EntityIcon';
import { useListLayout } from '@src/components/listLayout';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { thumbnailUrl } from '../imagingApi';
import { selectSettledThumbnail } from '../imagingSelectors';
import { imagingActions } from '../imagingSlice';
import './imaging.css';

/** Side of the list layout's thumbnail box, in CSS pixels. */
const LIST_THUMBNAIL_PX = 32;
/** Height of the grid layout's thumbnail box, in CSS pixels. */
const GRID_THUMBNAIL_PX = 120;

/** Props of {@link FileThumbnail}. */
export interface FileThumbnailProps {
  /** The item's id (a file's, for its thumbnail's address). */
  id: string;
  kind: FileKind;
  /** A folder's colour key (EntityIcon). */
  color?: string | null;
  /** Whether a thumbnail is stored (the DTO's `thumbnail`); false for folders. */
  thumbnail: boolean;
  /**
   * None is stored yet but document imaging makes one for this type (`awaitsThumbnail`): watched
   * while shown, until its derivation settles.
   */
  awaited?: boolean;
  /** Read through the guest's share (GET shared/files/{id}/thumbnail). */
  shared?: boolean;
}

/** The thumbnail or the type icon, sized by the enclosing list's layout. */
export function FileThumbnail({
  id,
  kind,
  color,
  thumbnail,
  awaited = false,
  shared = false,
}: FileThumbnailProps) {
  const layout = useListLayout();
  const dispatch = useAppDispatch();
  const settled = useAppSelector((state) => selectSettledThumbnail(state, id));
  const watching = awaited && !thumbnail && kind !== 'folder' && settled === undefined;
  useEffect(() => {
    if (!watching) return;
    dispatch(imagingActions.thumbnailWatched({ fileId: id, shared }));
    return () => {
      dispatch(imagingActions.thumbnailUnwatched({ fileId: id }));
    };
  }, [dispatch, watching, id, shared]);
  const stored = thumbnail || settled === true;
  // The address that failed to load: a later one (another item in a recycled row) is tried.
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const url = thumbnailUrl(id, shared);
  const className = `file-thumbnail file-thumbnail-${layout}`;
  if (!stored || kind === 'folder' || failedUrl === url) {
    return (
      <span className={`${className} file-thumbnail-icon`}>
        <EntityIcon kind={kind} color={color} />
      </span>
    );
  }
  const side = layout === 'grid' ? GRID_THUMBNAIL_PX : LIST_THUMBNAIL_PX;
  return (
    <span className={className} data-kind={kind}>
      <img
        src={url}
        alt=""
        loading="lazy"
        decoding="async"
        width={side}
        height={side}
        draggable={false}
        onError={() => setFailedUrl(url)}
      />
    </span>
  );
}
