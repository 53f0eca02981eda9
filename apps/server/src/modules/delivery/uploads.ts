import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.ts';

/**
 * Image uploads with bounded work: a process takes at most `maxConcurrent` at once (more are answered 503 with
 * Retry-After before their bodies are read), each is streamed to a temporary file as it arrives (its first bytes
 * kept to tell its type) and from that file to Slack, and the file is deleted when the request ends, however it
 * ends. No upload is ever held in memory whole.
 */

/** An image written to disk while its request lasts. */
export type StoredImage = {
  filename: string;
  path: string;
  size: number;
  /** Its first bytes (the type is told by them, whatever the name or the claimed type say). */
  head: Buffer;
  /** Longer than the multipart limit: the rest was not written. */
  truncated: boolean;
};

export const isStoredImage = (v: unknown): v is StoredImage =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as StoredImage).path === 'string' &&
  Buffer.isBuffer((v as StoredImage).head);

/** How long one upload may take, body and Slack included, before its connection is closed. */
const UPLOAD_DEADLINE_MS = 120_000;
/** What a refused upload is told to wait. */
const RETRY_AFTER_SECONDS = 2;
const HEAD_BYTES = 16;

type RequestState = { files: string[]; pending: Set<Promise<unknown>> };

export function imageUploads(opts: { maxConcurrent: number; tmpDir: string }) {
  fs.mkdirSync(opts.tmpDir, { recursive: true });
  let inFlight = 0;
  const states = new WeakMap<FastifyRequest, RequestState>();
  const track = <T>(state: RequestState, work: Promise<T>): Promise<T> => {
    state.pending.add(work);
    const done = () => state.pending.delete(work);
    work.then(done, done);
    return work;
  };

  return {
    inFlight: () => inFlight,

    /**
     * onRequest, after the token check: takes a slot or answers 503 with Retry-After. The slot and the request's
     * files are let go when its connection is done with (answered, or closed by the client) and whatever it
     * started (writing the file, sending it to Slack) has settled.
     */
    async admit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      if (inFlight >= opts.maxConcurrent)
        throw new AppError(
          'BUSY',
          503,
          `The server is taking ${opts.maxConcurrent} image uploads at once: try again in ${RETRY_AFTER_SECONDS} s`,
          { 'retry-after': String(RETRY_AFTER_SECONDS) },
        );
      inFlight++;
      const state: RequestState = { files: [], pending: new Set() };
      states.set(request, state);
      const deadline = setTimeout(() => request.raw.destroy(), UPLOAD_DEADLINE_MS);
      deadline.unref();
      reply.raw.once('close', () => {
        clearTimeout(deadline);
        void Promise.allSettled([...state.pending]).then(async () => {
          await Promise.all(state.files.map((f) => fs.promises.rm(f, { force: true }).catch(() => {})));
          inFlight--;
        });
      });
    },

    /** The multipart file handler: streams the part to a temporary file, keeping its size and first bytes. */
    async receive(request: FastifyRequest, part: MultipartFile): Promise<StoredImage> {
      const state = states.get(request);
      if (!state) throw new Error('an upload was read without its slot');
      const file = path.join(opts.tmpDir, `flywheel-upload-${crypto.randomUUID()}`);
      state.files.push(file);
      let size = 0;
      let head = Buffer.alloc(0);
      const measure = new Transform({
        transform(chunk: Buffer, _enc, done) {
          if (head.length < HEAD_BYTES)
            head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
          size += chunk.length;
          done(null, chunk);
        },
      });
      await track(
        state,
        pipeline(part.file, measure, fs.createWriteStream(file, { flags: 'wx', mode: 0o600 })),
      );
      return { filename: part.filename, path: file, size, head, truncated: part.file.truncated };
    },

    /** Work of the handler on the request's files: the files stay until it settles. */
    during<T>(request: FastifyRequest, work: Promise<T>): Promise<T> {
      const state = states.get(request);
      return state ? track(state, work) : work;
    },
  };
}
export type ImageUploads = ReturnType<typeof imageUploads>;

/** PNG and JPEG by their first bytes, whatever the file claims to be. */
export function imageKind(bytes: Buffer): 'png' | 'jpeg' | null {
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  return null;
}

const EXTENSIONS = { png: ['png'], jpeg: ['jpg', 'jpeg'] } as const;

/**
 * The name an image goes to Slack with: the sent name made safe, its extension the one of the type its bytes
 * show (`poly.html` holding a PNG becomes `poly.png`; `photo.JPEG` holding a JPEG stays `photo.jpeg`).
 */
export function imageFileName(sent: string, kind: 'png' | 'jpeg'): string {
  const safe = path
    .basename(sent.replace(/\\/g, '/'))
    .replace(/[^\w.\- ]+/g, '_')
    .trim();
  const dot = safe.lastIndexOf('.');
  const ext = dot > 0 ? safe.slice(dot + 1).toLowerCase() : '';
  const base = (dot > 0 ? safe.slice(0, dot) : safe).replace(/^[.\s]+/, '').slice(0, 100) || 'image';
  const allowed: readonly string[] = EXTENSIONS[kind];
  return `${base}.${allowed.includes(ext) ? ext : allowed[0]}`;
}

/** POSTs a file's bytes (raw, streamed from disk) to a Slack upload URL; Slack answers 200 when it took them. */
export function postFile(url: string, file: string, size: number, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const target = new URL(url);
    const req = (target.protocol === 'https:' ? https : http).request(
      target,
      {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(size) },
        timeout: timeoutMs,
      },
      (res) => {
        res.resume();
        res.on('error', reject);
        res.on('end', () =>
          res.statusCode === 200
            ? resolve()
            : reject(
                new AppError('SLACK_ERROR', 502, `Slack did not take the image (HTTP ${res.statusCode})`),
              ),
        );
      },
    );
    req.on('timeout', () =>
      req.destroy(new AppError('SLACK_ERROR', 504, 'Slack did not take the image in time')),
    );
    pipeline(fs.createReadStream(file), req).catch(reject);
  });
}
