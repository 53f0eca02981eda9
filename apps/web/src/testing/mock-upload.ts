import { vi } from 'vitest';

export type UploadReply = { status?: number; body?: unknown };
export type RecordedUpload = { url: string; headers: Record<string, string>; form: FormData };

/**
 * Replaces XMLHttpRequest (what uploads use for progress) with a fake that reports upload progress in
 * `steps` and answers with `reply(form, index)`.
 */
export function mockUploads(reply: (form: FormData, index: number) => UploadReply, steps = [0.5, 1]) {
  const uploads: RecordedUpload[] = [];

  class FakeUpload {
    onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null = null;
  }

  class FakeXhr {
    readonly upload = new FakeUpload();
    status = 0;
    responseText = '';
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private url = '';
    private readonly headers: Record<string, string> = {};

    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name.toLowerCase()] = value;
    }
    abort() {
      this.onabort?.();
    }
    send(form: FormData) {
      const index = uploads.length;
      uploads.push({ url: this.url, headers: this.headers, form });
      setTimeout(() => {
        for (const s of steps)
          this.upload.onprogress?.({ lengthComputable: true, loaded: s * 100, total: 100 });
        const r = reply(form, index);
        this.status = r.status ?? 201;
        this.responseText = r.body === undefined ? '' : JSON.stringify(r.body);
        this.onload?.();
      }, 5);
    }
  }

  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return { uploads };
}

/** A File of `size` bytes. */
export function fakeFile(name: string, type: string, size = 1024): File {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}
