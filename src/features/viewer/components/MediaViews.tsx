/**
 * What the viewer shows of files the browser displays itself: an image with zoom, audio and
 * video with the browser's controls (seeking sends Range requests, answered 206), and plain text
 * (the first MiB, read with one Range request). Never SVG or HTML: those are shown only through
 * their PDF rendition (common/imaging.ts `viewerContent`).
 */
import { MinusOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { VIEWER_MESSAGES } from '@common/imaging';
import { fetchTextHead, type TextHead } from '../viewerApi';

/** Zoom steps of images and PDFs (1 = the natural size; images start fitted). */
const ZOOM_STEP = 1.25;
/** The smallest and largest zoom factors. */
const MIN_ZOOM = 0.25;
const MAX_ZOOM = 5;

/** One zoom step in or out, within the limits. */
export function zoomed(scale: number, direction: 1 | -1): number {
  const next = direction > 0 ? scale * ZOOM_STEP : scale / ZOOM_STEP;
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, Math.round(next * 100) / 100));
}

/** An image: fitted to the window, or at a zoom factor of its natural size. */
export function ImageView({ url, name }: { url: string; name: string }) {
  const [scale, setScale] = useState<number | null>(null);
  const [natural, setNatural] = useState<{ width: number; height: number } | null>(null);
  const style =
    scale === null || !natural
      ? { maxWidth: '100%', maxHeight: '100%' }
      : { width: natural.width * scale, height: natural.height * scale, maxWidth: 'none' };
  return (
    <div className="viewer-image">
      <div className="viewer-toolbar" role="toolbar" aria-label="Zoom">
        <Button
          size="small"
          icon={<MinusOutlined aria-hidden />}
          aria-label="Zoom out"
          onClick={() => setScale((s) => zoomed(s ?? 1, -1))}
        />
        <span className="viewer-zoom">
          {scale === null ? 'Fit' : `${Math.round(scale * 100)}%`}
        </span>
        <Button
          size="small"
          icon={<PlusOutlined aria-hidden />}
          aria-label="Zoom in"
          onClick={() => setScale((s) => zoomed(s ?? 1, 1))}
        />
        <Button size="small" onClick={() => setScale(null)}>
          Fit
        </Button>
      </div>
      <div className="viewer-image-frame">
        <img
          src={url}
          alt={name}
          style={style}
          onLoad={(event) =>
            setNatural({
              width: event.currentTarget.naturalWidth,
              height: event.currentTarget.naturalHeight,
            })
          }
        />
      </div>
    </div>
  );
}

/** Audio or video with the browser's controls. */
export function MediaView({
  url,
  kind,
  name,
}: {
  url: string;
  kind: 'audio' | 'video';
  name: string;
}) {
  return (
    <div className="viewer-media">
      {kind === 'video' ? (
        <video src={url} controls preload="metadata" aria-label={name} />
      ) : (
        <audio src={url} controls preload="metadata" aria-label={name} />
      )}
    </div>
  );
}

/** Plain text (txt, csv, md, json) as text, never as markup. */
export function TextView({ url }: { url: string }) {
  const [read, setRead] = useState<{ head: TextHead | null; error: string | null }>({
    head: null,
    error: null,
  });
  useEffect(() => {
    const abort = new AbortController();
    setRead({ head: null, error: null });
    fetchTextHead(url, abort.signal).then(
      (head) => setRead({ head, error: null }),
      (error: unknown) => {
        if (!abort.signal.aborted) {
          setRead({ head: null, error: error instanceof Error ? error.message : String(error) });
        }
      },
    );
    return () => abort.abort();
  }, [url]);
  if (read.error) {
    return (
      <Alert type="error" showIcon title={VIEWER_MESSAGES.loadFailed} description={read.error} />
    );
  }
  if (!read.head) return <Spin />;
  return (
    <div className="viewer-text">
      {read.head.truncated ? (
        <Alert type="info" showIcon title={VIEWER_MESSAGES.textTruncated} />
      ) : null}
      <pre tabIndex={0}>{read.head.text}</pre>
    </div>
  );
}
