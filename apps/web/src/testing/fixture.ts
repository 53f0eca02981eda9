import { z } from 'zod';
import type { MockReply } from './mock-api.ts';

/**
 * A test's stand-in for a server answer, checked against the shared response schema the server itself
 * declares: a fixture that drifts from the contract fails the test that uses it (with zod's reasons).
 */
export function fixture<S extends z.ZodType>(schema: S, data: z.input<S>): z.input<S> {
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new Error(`A test fixture does not match its response schema:\n${z.prettifyError(parsed.error)}`);
  }
  return data;
}

/** A mock reply (200) whose body is a checked fixture. */
export function reply<S extends z.ZodType>(schema: S, data: z.input<S>, extra: Omit<MockReply, 'body'> = {}) {
  return { ...extra, body: fixture(schema, data) } satisfies MockReply;
}
