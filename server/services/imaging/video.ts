/**
 * Thumbnails of videos by FFmpeg (docs/architecture.md "Document imaging"): one frame, 1 s in
 * (the first frame of a shorter video; an opening frame is often black), scaled to at most
 * THUMBNAIL_PX a side, written as a PNG. Run like every tool (runner.ts: a child process niced
 * below the server, with a time limit, its process group killed on the limit or when the worker
 * stops). The upload's bytes are untrusted: the demuxer is named from the extension rather than
 * probed (so a file named .mp4 is never read as a playlist or another format naming other
 * files), only the `file` protocol is allowed (no network), and only the first video stream is
 * decoded, on one thread, with audio, subtitles and data left out.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { THUMBNAIL_PX } from './pdfText';
import { errorTail, runTool, type RunOptions } from './runner';
import { PermanentJobError } from './worker';

/** Where in the video the frame is taken, in seconds (the first frame when it is shorter). */
export const VIDEO_FRAME_SECONDS = 1;

/** FFmpeg's demuxer for each video extension imaging thumbnails (common/imaging.ts). */
const DEMUXERS: Readonly<Record<string, string>> = {
  mp4: 'mov',
  m4v: 'mov',
  mov: 'mov',
  mkv: 'matroska',
  webm: 'matroska',
  avi: 'avi',
  wmv: 'asf',
  ogv: 'ogg',
};

/** The FFmpeg demuxer for a video extension (any case), or null for one imaging does not read. */
export function videoDemuxer(extension: string): string | null {
  return DEMUXERS[extension.toLowerCase()] ?? null;
}

/**
 * FFmpeg's arguments writing one frame of `input`, `seconds` in, as the PNG `output`.
 * @param demuxer the input format (see {@link videoDemuxer})
 * @param seconds where to seek, or 0 for the first frame
 */
export function videoFrameArgs(
  input: string,
  output: string,
  demuxer: string,
  seconds: number,
): string[] {
  return [
    '-nostdin',
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-protocol_whitelist',
    'file',
    '-threads',
    '1',
    '-f',
    demuxer,
    ...(seconds > 0 ? ['-ss', String(seconds)] : []),
    '-i',
    input,
    '-map',
    '0:v:0',
    '-an',
    '-sn',
    '-dn',
    '-frames:v',
    '1',
    '-vf',
    `scale=${THUMBNAIL_PX}:${THUMBNAIL_PX}:force_original_aspect_ratio=decrease`,
    output,
  ];
}

/** Whether a file exists. */
async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes the thumbnail of a video into `dir`: a frame {@link VIDEO_FRAME_SECONDS} in, or the
 * first frame when the video is shorter (FFmpeg then writes nothing and exits 0).
 * @param extension the original's extension (chooses the demuxer)
 * @returns the PNG's path, or null when the file has no video stream (a sound-only MP4)
 * @throws PermanentJobError for a format imaging does not read or a file FFmpeg cannot read;
 *   the runner's errors (a missing FFmpeg: ToolMissingError, which names its install command)
 */
export async function videoThumbnail(
  input: string,
  extension: string,
  dir: string,
  options: RunOptions,
): Promise<string | null> {
  const demuxer = videoDemuxer(extension);
  if (!demuxer) throw new PermanentJobError(`No thumbnail is made of .${extension} files.`);
  const output = path.join(dir, 'thumbnail.png');
  for (const seconds of [VIDEO_FRAME_SECONDS, 0]) {
    const result = await runTool(
      'ffmpeg',
      videoFrameArgs(input, output, demuxer, seconds),
      options,
    );
    if (result.code !== 0) {
      if (/matches no streams/i.test(result.stderr)) return null;
      throw new PermanentJobError(`FFmpeg could not read the video: ${errorTail(result.stderr)}`);
    }
    if (await exists(output)) return output;
  }
  return null;
}
