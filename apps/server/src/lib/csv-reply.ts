import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * Streams CSV lines as a download. The first chunk is produced before the headers go out, so a request that
 * fails while resolving (a bad filter, an unknown receipt) still answers with the JSON error envelope.
 */
export async function sendCsv(reply: FastifyReply, lines: AsyncGenerator<string>, fileName: string) {
  const first = await lines.next();
  async function* all() {
    if (!first.done) yield first.value;
    yield* lines;
  }
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(all()));
}
