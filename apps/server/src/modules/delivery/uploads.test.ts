import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signedInUser } from '../../testing/factories.ts';
import {
  installThroughOAuth,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
} from '../../testing/slack.ts';
import { imageFileName } from './uploads.ts';

/*
 * Image uploads: named by the type their bytes show, refused with a 400 naming the field, a few at once per
 * process (the next answered 503 with Retry-After before its body is read), each through a temporary file that
 * is gone when the request is.
 */

let env: SlackTestEnv;
let user: { token: string; userid: string };
let stranger: { token: string; userid: string };
let teamId: string;
let otherTeam: string;
const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flywheel-uploads-test-'));
const MAX_CONCURRENT = 2;

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082',
  'hex',
);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0rest')]);

beforeAll(async () => {
  env = await slackTestEnv(
    {
      workspaces: [
        { seed: 31, members: 10, channels: 2, days: 1 },
        { seed: 32, members: 10, channels: 2, days: 1 },
      ],
    },
    { UPLOAD_MAX_CONCURRENT: String(MAX_CONCURRENT), UPLOAD_TMP_DIR: tmpDir },
  );
  [teamId, otherTeam] = env.emu.teamIds as [string, string];
  user = await signedInUser(env.t);
  stranger = await signedInUser(env.t);
  expect((await installThroughOAuth(env, user, { teamId })).statusCode).toBe(200);
  expect((await installThroughOAuth(env, stranger, { teamId: otherTeam })).statusCode).toBe(200);
  await waitForBackfill(env, user.token, teamId);
}, 120_000);
afterAll(async () => {
  await env.close();
  fs.rmSync(tmpDir, { recursive: true, force: true });
});

const BOUNDARY = 'flywheel-test-boundary';
/** A multipart body as browsers send it: team_id, then the image. */
function multipart(bytes: Buffer, filename: string, type: string, team = teamId): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="team_id"\r\n\r\n${team}\r\n` +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="image"; filename="${filename}"\r\n` +
        `Content-Type: ${type}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

const upload = (bytes: Buffer, filename: string, type: string, team = teamId, token = user.token) =>
  env.t.app.inject({
    method: 'POST',
    url: '/api/v0/quickaction/uploadimage',
    headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload: multipart(bytes, filename, type, team),
  });

/** Temporary upload files of the server now. */
const tmpFiles = () => fs.readdirSync(tmpDir);

async function until(what: string, check: () => boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`still waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * An upload over real HTTP whose body is sent in two steps: the headers and the first `first` bytes at once,
 * the rest when `finish()` is called. `answer` settles when the server answers (even before the body is all in).
 */
function heldUpload(body: Buffer, first = 64 * 1024) {
  const url = new URL(`${env.url}/api/v0/quickaction/uploadimage`);
  let settle!: (r: { status: number; headers: http.IncomingHttpHeaders; body: string }) => void;
  let fail!: (e: Error) => void;
  const answer = new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (res, rej) => {
      settle = res;
      fail = rej;
    },
  );
  const req = http.request(url, {
    method: 'POST',
    headers: {
      ...bearer(user.token),
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      'content-length': String(body.length),
    },
  });
  req.on('response', (res) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (c: string) => (text += c));
    res.on('end', () => settle({ status: res.statusCode!, headers: res.headers, body: text }));
  });
  req.on('error', fail);
  req.write(body.subarray(0, first));
  return {
    answer,
    finish: () => req.end(body.subarray(first)),
    abort: () => req.destroy(),
  };
}

/** A 3 MB PNG: the signature and zeros (its bytes say PNG, which is all the server checks). */
const bigPng = () => Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024)]);

describe('image uploads', () => {
  it('a PNG sent as poly.html reaches Slack as poly.png, a JPEG sent as photo.gif as photo.jpg', async () => {
    const png = await upload(PNG, 'poly.html', 'image/png');
    expect(png.statusCode).toBe(201);
    expect(png.json().data.name).toBe('poly.png');
    const file = env.emu.file(png.json().data.file_id)!;
    expect(file).toMatchObject({ name: 'poly.png', title: 'poly.png', mimetype: 'image/png', teamId });
    expect(file.completed).toBe(true);
    expect(file.data!.equals(PNG)).toBe(true);

    // The claimed type does not matter either: the bytes do.
    const jpeg = await upload(JPEG, 'photo.gif', 'text/html');
    expect(jpeg.statusCode).toBe(201);
    expect(env.emu.file(jpeg.json().data.file_id)).toMatchObject({
      name: 'photo.jpg',
      mimetype: 'image/jpeg',
    });
    expect(env.emu.file(jpeg.json().data.file_id)!.data!.equals(JPEG)).toBe(true);
    await until('the temporary files are deleted', () => tmpFiles().length === 0);
  });

  it('names: the sent name made safe, the extension the one of the bytes', () => {
    expect(imageFileName('poly.html', 'png')).toBe('poly.png');
    expect(imageFileName('Photo.JPEG', 'jpeg')).toBe('Photo.jpeg');
    expect(imageFileName('scan.jpg', 'png')).toBe('scan.png');
    expect(imageFileName('../../etc/passwd', 'png')).toBe('passwd.png');
    expect(imageFileName('C:\\Users\\me\\cat.png', 'png')).toBe('cat.png');
    expect(imageFileName('.htaccess', 'jpeg')).toBe('htaccess.jpg');
    expect(imageFileName('', 'png')).toBe('image.png');
    expect(imageFileName('<script>.png', 'png')).toBe('_script_.png');
  });

  it('refusals name the field; nothing reaches Slack and no file is left behind', async () => {
    await until('no temporary file left', () => tmpFiles().length === 0);
    const gif = await upload(Buffer.from('GIF89a\x01\x00\x01\x00'), 'pic.png', 'image/png');
    expect(gif.statusCode).toBe(400);
    expect(gif.json().message).toBe('image: Only jpg/jpeg/png images are supported!');
    const html = await upload(Buffer.from('<html><script>alert(1)</script></html>'), 'x.png', 'image/png');
    expect(html.statusCode).toBe(400);
    expect(html.json().message).toBe('image: Only jpg/jpeg/png images are supported!');
    const huge = await upload(Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)]), 'big.png', 'image/png');
    expect(huge.statusCode).toBe(400);
    expect(huge.json().message).toBe('image: Image size should be less than 5MB!');
    const none = await env.t.app.inject({
      method: 'POST',
      url: '/api/v0/quickaction/uploadimage',
      headers: { ...bearer(user.token), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="team_id"\r\n\r\n${teamId}\r\n--${BOUNDARY}--\r\n`,
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toMatch(/^image: /);
    // Another admin's workspace: 403, whatever the file.
    expect((await upload(PNG, 'x.png', 'image/png', otherTeam)).statusCode).toBe(403);
    expect((await upload(PNG, 'x.png', 'image/png', teamId, stranger.token)).statusCode).toBe(403);
    await until('the temporary files are deleted', () => tmpFiles().length === 0);
  });

  it(`more than ${MAX_CONCURRENT} at once: the next is refused 503 with Retry-After before its body is read`, async () => {
    const body = multipart(bigPng(), 'big.png', 'image/png');
    const held = [heldUpload(body), heldUpload(body)];
    // Both are in: each is writing its file.
    await until(`${MAX_CONCURRENT} uploads writing their files`, () => tmpFiles().length === MAX_CONCURRENT);

    // The third sends 64 KB of its 3 MB and is answered: the server did not wait for (nor keep) the rest.
    const third = heldUpload(body);
    const refused = await Promise.race([
      third.answer,
      new Promise<never>((_, rej) =>
        setTimeout(
          () => rej(new Error('the third upload was not refused: its body is being waited for')),
          10_000,
        ),
      ),
    ]);
    third.abort();
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('2');
    expect(JSON.parse(refused.body)).toMatchObject({
      code: 'BUSY',
      message: `The server is taking ${MAX_CONCURRENT} image uploads at once: try again in 2 s`,
    });
    expect(tmpFiles()).toHaveLength(MAX_CONCURRENT);

    // The held ones finish and are uploaded whole.
    for (const h of held) h.finish();
    const done = await Promise.all(held.map((h) => h.answer));
    expect(done.map((d) => d.status)).toEqual([201, 201]);
    for (const d of done) {
      const file = env.emu.file(JSON.parse(d.body).data.file_id)!;
      expect(file.size).toBe(bigPng().length);
      expect(file.name).toBe('big.png');
    }
    await until('the temporary files are deleted', () => tmpFiles().length === 0);
    // And their slots are free again.
    expect((await upload(PNG, 'again.png', 'image/png')).statusCode).toBe(201);
  });

  it('a client that goes away mid-upload frees its slot and its file', async () => {
    const body = multipart(bigPng(), 'gone.png', 'image/png');
    const gone = heldUpload(body);
    gone.answer.catch(() => {});
    await until('the upload writing its file', () => tmpFiles().length === 1);
    gone.abort();
    await until('the file of the gone upload is deleted', () => tmpFiles().length === 0);
    // Both slots are free: two more are taken at once.
    const held = [heldUpload(body), heldUpload(body)];
    await until(`${MAX_CONCURRENT} uploads writing their files`, () => tmpFiles().length === MAX_CONCURRENT);
    for (const h of held) h.finish();
    expect((await Promise.all(held.map((h) => h.answer))).map((d) => d.status)).toEqual([201, 201]);
    await until('the temporary files are deleted', () => tmpFiles().length === 0);
  });
});
