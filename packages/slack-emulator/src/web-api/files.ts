import type { Core, FileRecord } from '../core.ts';
import { jsonArg, strArg } from '../http/body.ts';
import { newId, randomToken } from '../ids.ts';
import type { SlackFile } from '../types.ts';
import { targetChannel } from './chat.ts';
import { authed, required, SlackError, type MethodDef } from './registry.ts';

const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  txt: 'text/plain',
  csv: 'text/csv',
  pdf: 'application/pdf',
  json: 'application/json',
  md: 'text/markdown',
};

export const publicFile = (f: FileRecord): SlackFile => {
  const { teamId: _t, data: _d, length: _l, completed: _c, uploadKey: _k, ...rest } = f;
  return rest;
};

/** The upload URL handler: POST raw bytes or a multipart part; answers 200 "OK - <bytes>" as Slack does. */
export function acceptUpload(core: Core, uploadKey: string, data: Buffer): { status: number; text: string } {
  const file = [...core.files.values()].find((f) => f.uploadKey === uploadKey);
  if (!file || file.completed) return { status: 404, text: 'upload not found' };
  file.data = data;
  file.size = data.length;
  return { status: 200, text: `OK - ${data.length}` };
}

export const fileMethods: Record<string, MethodDef> = {
  'files.getUploadURLExternal': {
    tier: 4,
    scope: 'files:write',
    handle: (call) => {
      const c = authed(call);
      const filename = required(c, 'filename');
      const length = Number(required(c, 'length'));
      if (!Number.isInteger(length) || length < 0)
        throw new SlackError('invalid_arguments', {
          response_metadata: { messages: ['[ERROR] length must be an integer'] },
        });
      const id = newId('F', 10);
      const ext = filename.split('.').pop()?.toLowerCase() ?? '';
      const base = c.core.baseUrl();
      const now = Math.floor(c.core.now() / 1000);
      const key = `${id}-${randomToken(10)}`;
      c.core.files.set(id, {
        ...{
          id,
          created: now,
          timestamp: now,
          name: filename,
          title: filename,
          mimetype: MIME[ext] ?? 'application/octet-stream',
        },
        ...{
          filetype: ext || 'binary',
          pretty_type: ext.toUpperCase() || 'Binary',
          user: c.token.userId,
          size: 0,
          is_public: false,
        },
        ...{
          url_private: `${base}/files/${id}/${encodeURIComponent(filename)}`,
          url_private_download: `${base}/files/${id}/${encodeURIComponent(filename)}?download=1`,
        },
        ...{
          permalink: `${base}/files/${id}/${encodeURIComponent(filename)}`,
          channels: [],
          teamId: c.team.id,
          length,
          completed: false,
          uploadKey: key,
        },
      });
      return { ok: true, upload_url: `${base}/upload/v1/${key}`, file_id: id };
    },
  },
  'files.completeUploadExternal': {
    tier: 4,
    scope: 'files:write',
    handle: (call) => {
      const c = authed(call);
      const list = jsonArg<{ id: string; title?: string }[]>(c.params.files);
      if (!Array.isArray(list) || list.length === 0)
        throw new SlackError('invalid_arguments', {
          response_metadata: { messages: ['[ERROR] missing required field: files'] },
        });
      const records = list.map((f) => {
        const rec = c.core.files.get(f.id);
        if (!rec || rec.teamId !== c.team.id) throw new SlackError('file_not_found');
        if (rec.data === undefined)
          throw new SlackError('file_upload_not_found', { detail: `no bytes were posted for ${f.id}` });
        if (f.title) rec.title = f.title;
        return rec;
      });
      const channelArg = strArg(c.params.channel_id) ?? strArg(c.params.channels)?.split(',')[0];
      for (const rec of records) rec.completed = true;
      if (channelArg) {
        const ch = targetChannel(c, channelArg);
        for (const rec of records) rec.channels = [ch.id];
        const thread = strArg(c.params.thread_ts);
        const msg = {
          user: c.token.userId,
          text: strArg(c.params.initial_comment) ?? '',
          team: c.team.id,
          upload: true,
          files: records.map(publicFile),
          ...(thread ? { thread_ts: thread } : {}),
        };
        if (!c.team.channels.isMember(ch.id, c.token.userId)) throw new SlackError('not_in_channel');
        c.team.postMessage(ch.id, { ...msg, subtype: 'file_share' });
      }
      return { ok: true, files: records.map((r) => ({ id: r.id, title: r.title })) };
    },
  },
};
