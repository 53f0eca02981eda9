import type { IncomingMessage } from 'node:http';

export type UploadedPart = { name: string; filename?: string; contentType?: string; data: Buffer };
export type ParsedRequest = { params: Record<string, unknown>; parts: UploadedPart[]; raw: Buffer };

const MAX_BODY = 50 * 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Query string + form, JSON or multipart body, merged into one argument map (body wins). */
export async function parseRequest(req: IncomingMessage, url: URL): Promise<ParsedRequest> {
  const params: Record<string, unknown> = Object.fromEntries(url.searchParams);
  const raw = req.method === 'GET' || req.method === 'HEAD' ? Buffer.alloc(0) : await readBody(req);
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  const parts: UploadedPart[] = [];
  if (raw.length === 0) return { params, parts, raw };
  if (type.startsWith('application/json')) {
    const json: unknown = JSON.parse(raw.toString('utf8'));
    if (json && typeof json === 'object' && !Array.isArray(json)) Object.assign(params, json);
  } else if (type.startsWith('multipart/form-data')) {
    const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(type);
    const b = boundary?.[1] ?? boundary?.[2];
    if (b) {
      for (const part of parseMultipart(raw, b.trim())) {
        if (part.filename !== undefined) parts.push(part);
        else params[part.name] = part.data.toString('utf8');
      }
    }
  } else if (type.startsWith('application/x-www-form-urlencoded') || type === '') {
    Object.assign(params, Object.fromEntries(new URLSearchParams(raw.toString('utf8'))));
  }
  return { params, parts, raw };
}

export function parseMultipart(body: Buffer, boundary: string): UploadedPart[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const out: UploadedPart[] = [];
  let pos = body.indexOf(delimiter);
  while (pos >= 0) {
    const start = pos + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next < 0) break;
    const chunk = body.subarray(start + 2, next - 2);
    const headerEnd = chunk.indexOf('\r\n\r\n');
    if (headerEnd >= 0) {
      const headers = chunk.subarray(0, headerEnd).toString('utf8');
      const name = /name="([^"]*)"/i.exec(headers)?.[1] ?? '';
      const filename = /filename="([^"]*)"/i.exec(headers)?.[1];
      const contentType = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1];
      out.push({ name, filename, contentType, data: Buffer.from(chunk.subarray(headerEnd + 4)) });
    }
    pos = next;
  }
  return out;
}

/** Reads a JSON-ish argument that SDKs send either as an object or as a JSON string. */
export function jsonArg<T = unknown>(value: unknown): T | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') return value as T;
  try {
    return JSON.parse(value) as T;
  } catch {
    return undefined;
  }
}

export const strArg = (value: unknown): string | undefined =>
  value === undefined || value === null ? undefined : String(value);

export const boolArg = (value: unknown): boolean =>
  value === true || value === 'true' || value === '1' || value === 1;
