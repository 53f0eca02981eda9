import type { FastifyInstance } from 'fastify';
import { BUCKET_CSV_TITLE } from '@flywheel/shared/buckets';
import {
  addBucketTags,
  createBucket,
  deleteBucket,
  executeBucket,
  exportAdvanceAnalytics,
  getBucketResult,
  getBuckets,
  performAdvanceAnalytics,
} from '@flywheel/shared/endpoints/buckets';
import { sendCsv } from '../../lib/csv-reply.ts';
import { endpointRoutes } from '../../plugins/endpoint-route.ts';
import type { WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import type { BucketsService } from './service.ts';

/** The advanced analytics table and the bucket calls. */
export function bucketRoutes(deps: { buckets: BucketsService; guard: WorkspaceGuard }) {
  const b = deps.buckets;
  return async (app: FastifyInstance) => {
    const route = endpointRoutes(app, { guard: deps.guard });

    route(performAdvanceAnalytics, async (req) => b.advance(req.body));

    route(exportAdvanceAnalytics, async (req, reply) =>
      sendCsv(reply, b.csv(req.body), `${BUCKET_CSV_TITLE}.csv`),
    );

    route(createBucket, async (req, reply) => {
      const made = await b.create(req.body.team_id, req.body.bucket_name, req.body.data);
      return reply.code(201).send({ data: made, message: `Bucket '${made.name}' created` });
    });

    route(getBuckets, async (req) => ({ data: await b.list(req.params.teamId) }));

    route(executeBucket, async (req) => b.execute(req.body.team_id, req.body.id));

    route(getBucketResult, async (req) => ({ data: await b.result(req.params.teamId, req.params.id) }));

    route(addBucketTags, async (req) =>
      b.addTags(
        req.body.team_id,
        req.body.id,
        req.body.tags.map((t) => t.id),
      ),
    );

    route(deleteBucket, async (req) => b.remove(req.params.teamId, req.params.id));
  };
}
