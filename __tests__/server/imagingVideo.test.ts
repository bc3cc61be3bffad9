/**
 * Video thumbnails by FFmpeg: the plan of each video type the app accepts, FFmpeg's arguments
 * (demuxer named from the extension, `file` protocol only, first video stream, one frame of at
 * most 320 px a side), a frame 1 s in or the first frame of a shorter video, no thumbnail for a
 * file without a picture (the corpus's MP4 holds sound only), a missing FFmpeg named with its
 * install command, and the derive job storing the frame as the file's thumbnail on both
 * databases (with no PDF and no text). The videos with a picture are made by FFmpeg's own test
 * source: /work/shared/corpus has no video stream to take a frame from.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import {
  derivationPlan,
  installCommand,
  VIDEO_EXTENSIONS,
  viewerContent,
  type FileRenditionDto,
} from '@common/imaging';
import { contentTypeFor } from '@common/files';
import type { NewFile } from '@server/db/schema';
import { newId } from '@server/ids';
import { findJobForFile } from '@server/repositories/jobs';
import { findRendition } from '@server/repositories/renditions';
import { deriveFrom, deriveHandler, renditionKeys } from '@server/services/imaging/derive';
import { enqueueDerivations } from '@server/services/imaging/queue';
import { runTool, ToolMissingError } from '@server/services/imaging/runner';
import {
  VIDEO_FRAME_SECONDS,
  videoDemuxer,
  videoFrameArgs,
  videoThumbnail,
} from '@server/services/imaging/video';
import { PermanentJobError, startImagingWorker } from '@server/services/imaging/worker';
import { describeEachDatabase, signIn, startTestServer, type TestServer } from './helpers';
import { itWithTools } from './imagingHelpers';
import { fileRow, firmOf, folderRow, insertRows, storeObject, type Firm } from './seedRows';

const CORPUS = path.resolve(__dirname, '../../../shared/corpus');
/** The corpus's MP4: an AAC sound track and no video stream. */
const SOUND_ONLY_MP4 = `${CORPUS}/small-mp4-with-audio.mp4`;
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
const options = { timeoutMs: 120_000 };
const SLOW = 180_000;

/** A PNG's width and height (its IHDR chunk, RFC 2083 section 4.1.1). */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 4)).toEqual(PNG_MAGIC);
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/**
 * Writes a video of FFmpeg's test pattern (`testsrc`) into `file`.
 * @param seconds its length
 * @param format FFmpeg's muxer ('mp4', 'webm', 'matroska', 'avi')
 */
async function testVideo(file: string, seconds: number, format = 'mp4'): Promise<void> {
  const codec = format === 'webm' ? ['-c:v', 'libvpx', '-b:v', '200k'] : ['-pix_fmt', 'yuv420p'];
  const made = await runTool(
    'ffmpeg',
    [
      '-nostdin',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc=duration=${seconds}:size=640x360:rate=10`,
      ...codec,
      '-f',
      format,
      file,
    ],
    options,
  );
  expect(made.stderr).toBe('');
  expect(made.code).toBe(0);
}

describe('video plans and arguments', () => {
  it('thumbnails every video type the app accepts, and shows only those the browser plays', () => {
    for (const extension of ['mp4', 'mov', 'avi', 'mkv', 'webm', 'm4v', 'wmv', 'ogv']) {
      expect(VIDEO_EXTENSIONS.has(extension)).toBe(true);
      expect(derivationPlan(extension.toUpperCase(), contentTypeFor(extension))).toBe('video');
      expect(videoDemuxer(extension)).not.toBeNull();
    }
    // The viewer plays what the browser plays; a video it does not is no rendition.
    expect(viewerContent('mp4', 'video/mp4')).toBe('video');
    expect(viewerContent('avi', 'video/x-msvideo')).toBeNull();
    expect(viewerContent('mkv', 'video/x-matroska')).toBeNull();
    expect(derivationPlan('mp3', 'audio/mpeg')).toBeNull();
  });

  it('names the demuxer, allows only local files and takes one scaled frame', () => {
    const args = videoFrameArgs('/work/in.mp4', '/work/out.png', 'mov', VIDEO_FRAME_SECONDS);
    const after = (flag: string) => args[args.indexOf(flag) + 1];
    expect(after('-f')).toBe('mov');
    expect(after('-protocol_whitelist')).toBe('file');
    expect(after('-ss')).toBe('1');
    expect(args.indexOf('-ss')).toBeLessThan(args.indexOf('-i'));
    expect(after('-map')).toBe('0:v:0');
    expect(after('-frames:v')).toBe('1');
    expect(after('-vf')).toBe('scale=320:320:force_original_aspect_ratio=decrease');
    expect(args.at(-1)).toBe('/work/out.png');
    expect(videoFrameArgs('/a.avi', '/b.png', 'avi', 0)).not.toContain('-ss');
  });
});

describe('video thumbnails by FFmpeg', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'dossier-video-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  itWithTools(
    ['ffmpeg'],
    'takes a frame 1 s in, or the first frame of a shorter video, at most 320 px a side',
    async () => {
      const long = path.join(dir, 'clip.mp4');
      await testVideo(long, 3);
      const frame = await videoThumbnail(long, 'mp4', dir, options);
      expect(frame).not.toBeNull();
      expect(pngSize(await readFile(frame!))).toEqual({ width: 320, height: 180 });

      const shortDir = await mkdtemp(path.join(dir, 'short-'));
      const short = path.join(shortDir, 'short.webm');
      await testVideo(short, 0.4, 'webm');
      const first = await videoThumbnail(short, 'webm', shortDir, options);
      expect(first).not.toBeNull();
      expect(pngSize(await readFile(first!)).width).toBe(320);
    },
    SLOW,
  );

  itWithTools(
    ['ffmpeg'],
    "makes no thumbnail of the corpus's sound-only MP4, and gives up on a damaged video",
    async () => {
      const input = path.join(dir, 'original.mp4');
      await writeFile(input, await readFile(SOUND_ONLY_MP4));
      const derived = await deriveFrom('video', input, 'mp4', dir, ['eng'], options);
      expect(derived).toEqual({ pdf: null, text: null, thumbnail: null, recognized: false });

      // Not a video at all (a Word document's first bytes named .mp4): FFmpeg finds no header.
      const broken = path.join(dir, 'broken.mp4');
      await writeFile(broken, (await readFile(`${CORPUS}/test.docx`)).subarray(0, 300));
      const failed = videoThumbnail(broken, 'mp4', dir, options);
      await expect(failed).rejects.toBeInstanceOf(PermanentJobError);
      await expect(failed).rejects.toThrow('FFmpeg could not read the video');
    },
    SLOW,
  );

  it('names the missing FFmpeg with its install command', async () => {
    const input = path.join(dir, 'clip.mp4');
    await writeFile(input, Buffer.from('not read'));
    const run = videoThumbnail(input, 'mp4', dir, { ...options, env: { PATH: '/nonexistent' } });
    await expect(run).rejects.toBeInstanceOf(ToolMissingError);
    await expect(run).rejects.toThrow(
      `FFmpeg not found (needed for thumbnails of videos (a frame)): ${installCommand(['ffmpeg'])}`,
    );
  });
});

describeEachDatabase('derive job of videos', (kind) => {
  let server: TestServer;
  let firm: Firm;
  let folderId: string;
  let cookie: string;
  let dir: string;
  const silentLog = {
    info: () => undefined,
    warn: () => undefined,
    error: () => undefined,
  } as never;

  beforeAll(async () => {
    server = await startTestServer(kind);
    cookie = await signIn(server);
    firm = await firmOf(server, cookie);
    const folder = folderRow(firm, '', 'Videos');
    folderId = folder.id;
    await insertRows(server, { folders: [folder] });
    dir = await mkdtemp(path.join(os.tmpdir(), 'dossier-video-job-'));
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Records a ready file with these bytes and queues its job. */
  async function recorded(name: string, body: Buffer): Promise<NewFile> {
    const file = fileRow(firm, folderId, `${newId()}-${name}`);
    await storeObject(server, file, body);
    await insertRows(server, { files: [file] });
    await enqueueDerivations(server.services, [
      {
        databaseId: firm.databaseId,
        id: file.id,
        extension: file.extension,
        contentType: file.content_type,
        sha256: null,
      },
    ]);
    return file;
  }

  async function runQueue(): Promise<void> {
    const worker = startImagingWorker(server.services, silentLog, deriveHandler(server.services), {
      pollMs: 100,
    });
    await worker.idle();
    await worker.stop();
  }

  const get = (url: string) => server.app.inject({ method: 'GET', url, headers: { cookie } });

  itWithTools(
    ['ffmpeg'],
    "stores a video's frame as its thumbnail, without PDF or text; a sound-only MP4 gets none",
    async () => {
      const clip = path.join(dir, 'clip.mp4');
      await testVideo(clip, 2);
      const video = await recorded('walkthrough.mp4', await readFile(clip));
      const sound = await recorded('voicemail.mp4', await readFile(SOUND_ONLY_MP4));
      await runQueue();

      const job = (await findJobForFile(server.services.db, 'derive', video.id))!;
      expect(job).toMatchObject({ state: 'done', last_error: null });
      const keys = renditionKeys(job.sha256!);
      expect(await findRendition(server.services.db, job.sha256!)).toMatchObject({
        source_kind: 'video',
        pdf_key: null,
        text_key: null,
        thumbnail_key: keys.thumbnail,
        page_count: null,
        content_indexed: 1,
      });
      const thumbnail = await get(`/api/rest/files/${video.id}/thumbnail`);
      expect(thumbnail.statusCode).toBe(200);
      expect(pngSize(thumbnail.rawPayload)).toEqual({ width: 320, height: 180 });
      const state = await get(`/api/rest/files/${video.id}/rendition`);
      expect(state.json<FileRenditionDto>()).toMatchObject({
        state: 'done',
        pdf: false,
        text: false,
        thumbnail: true,
      });

      expect(await findJobForFile(server.services.db, 'derive', sound.id)).toMatchObject({
        state: 'done',
      });
      const none = await get(`/api/rest/files/${sound.id}/rendition`);
      expect(none.json<FileRenditionDto>()).toMatchObject({ state: 'done', thumbnail: false });
      expect((await get(`/api/rest/files/${sound.id}/thumbnail`)).statusCode).toBe(404);
    },
    SLOW,
  );
});
