import type { z } from 'zod';
import { endpointPath, successSchema, type Endpoint, type EndpointAnswer } from '@flywheel/shared/endpoint';
import { BAD_RESPONSE } from './api-client.ts';
import {
  API_BASE,
  ApiError,
  endSessionAfter401,
  networkError,
  parseBody,
  readEnvelope,
  sessionToken,
} from './api-envelope.ts';

export type UploadOptions = {
  /** Called with the share of the request body sent so far, 0 to 1. */
  onProgress?(fraction: number): void;
  signal?: AbortSignal;
};

type UploadRequestOptions<T> = UploadOptions & {
  /** The answer's schema: it is parsed (and checked) instead of trusted, as apiRequest does. */
  schema?: z.ZodType<T>;
};

/**
 * POSTs multipart form data with the session's bearer token through XMLHttpRequest, which reports upload
 * progress (fetch does not). Behaves as apiRequest does otherwise: resolves with the parsed JSON body, rejects
 * with the envelope's ApiError, and a 401 ends the session.
 */
export function uploadRequest<T>(
  path: string,
  form: FormData,
  options: UploadRequestOptions<T> = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let token: string;
    try {
      token = sessionToken();
    } catch (err) {
      reject(err);
      return;
    }
    const { onProgress, signal, schema } = options;
    if (signal?.aborted) {
      reject(new DOMException('The upload was aborted', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    const abort = () => xhr.abort();
    signal?.addEventListener('abort', abort, { once: true });
    const done = () => signal?.removeEventListener('abort', abort);

    xhr.open('POST', `${API_BASE}${path}`);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress?.(Math.min(1, e.loaded / e.total));
    };
    xhr.onload = () => {
      done();
      const data = parseBody(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(1);
        if (!schema) {
          resolve(data as T);
          return;
        }
        const parsed = schema.safeParse(data);
        if (parsed.success) resolve(parsed.data);
        else {
          console.error(`Unexpected answer from ${path}`, parsed.error.issues);
          reject(new ApiError(BAD_RESPONSE, xhr.status, 'BAD_RESPONSE'));
        }
        return;
      }
      if (xhr.status === 401) endSessionAfter401();
      reject(readEnvelope(data, xhr.status));
    };
    xhr.onerror = () => {
      done();
      reject(networkError());
    };
    xhr.onabort = () => {
      done();
      reject(new DOMException('The upload was aborted', 'AbortError'));
    };
    xhr.send(form);
  });
}

/**
 * Uploads to a multipart contract (one with `consumes`, packages/shared/src/endpoint.ts): the contract's path, the
 * answer parsed by its success schema.
 */
export const uploadEndpoint = <E extends Endpoint & { method: 'POST'; consumes: readonly string[] }>(
  endpoint: E,
  form: FormData,
  options: UploadOptions = {},
): Promise<EndpointAnswer<E>> =>
  uploadRequest(endpointPath(endpoint), form, {
    ...options,
    schema: successSchema(endpoint) as z.ZodType<EndpointAnswer<E>> | undefined,
  });
