import { afterEach, describe, expect, it, vi } from 'vitest';
import { uploadImage } from '@flywheel/shared/endpoints/delivery';
import { seedSession } from '../testing/session-fixtures.ts';
import { ApiError } from './api-client.ts';
import { clearSession } from './session.ts';
import { uploadEndpoint } from './upload-request.ts';

/** An XMLHttpRequest that records what is sent and answers `status` with `body` at once. */
function fakeXhr(status: number, body: unknown) {
  const sent: { method: string; url: string; headers: Record<string, string>; form: unknown }[] = [];
  class FakeXhr {
    status = 0;
    responseText = '';
    upload: { onprogress?: (e: { lengthComputable: boolean; loaded: number; total: number }) => void } = {};
    onload?: () => void;
    onerror?: () => void;
    onabort?: () => void;
    private call = { method: '', url: '', headers: {} as Record<string, string>, form: undefined as unknown };
    open(method: string, url: string) {
      this.call.method = method;
      this.call.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.call.headers[name] = value;
    }
    abort() {}
    send(form: unknown) {
      sent.push({ ...this.call, form });
      this.status = status;
      this.responseText = JSON.stringify(body);
      this.onload?.();
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return sent;
}

describe('uploadEndpoint', () => {
  afterEach(() => {
    clearSession();
    vi.unstubAllGlobals();
  });

  it("posts the form to the contract's path and parses its success answer", async () => {
    seedSession();
    const answer = { message: 'Image uploaded', data: { file_id: 'F1', url: 'https://x/F1', name: 'a.png' } };
    const sent = fakeXhr(201, answer);
    const form = new FormData();
    form.append('team_id', 'T1');
    const progress: number[] = [];
    await expect(uploadEndpoint(uploadImage, form, { onProgress: (f) => progress.push(f) })).resolves.toEqual(
      answer,
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'POST', url: '/api/v0/quickaction/uploadimage', form });
    expect(sent[0]!.headers.authorization).toMatch(/^Bearer /);
    expect(progress).toEqual([1]);
  });

  it('rejects an answer its contract cannot read', async () => {
    seedSession();
    fakeXhr(201, { message: 'Image uploaded', data: { file_id: 7 } });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const err = await uploadEndpoint(uploadImage, new FormData()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('BAD_RESPONSE');
  });
});
