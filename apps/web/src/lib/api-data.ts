import { z } from 'zod';
import { apiRequest, type RequestOptions } from './api-client.ts';

/** `{ data: item }`: the envelope of a single answer (the server's routes declare the same). */
export const dataItem = <T extends z.ZodType>(item: T) => z.object({ data: item });

/** Requests `path`, parses the answer with the `{ data }` envelope `schema`, resolves with its data. */
export async function requestData<T>(
  path: string,
  schema: z.ZodType<{ data: T }>,
  options: RequestOptions = {},
): Promise<T> {
  const answer = await apiRequest(path, { ...options, schema });
  return answer.data;
}
