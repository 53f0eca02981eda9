import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { rowId } from '@flywheel/shared/input';
import { messageResponse } from '@flywheel/shared/http';
import {
  BUCKET_CSV_TITLE,
  advanceAnalyticsBody,
  advanceAnalyticsFilter,
  advanceAnalyticsResponse,
  bucketAddTagsBody,
  bucketResultResponse,
  bucketsResponse,
  createBucketBody,
  createBucketResponse,
  executeBucketBody,
  executeBucketResponse,
} from '@flywheel/shared/buckets';
import { sendCsv } from '../../lib/csv-reply.ts';
import { type WorkspaceGuard, scopedOptions, teamIdParam } from '../../plugins/workspace-guard.ts';
import type { BucketsService } from './service.ts';

const tags = ['buckets'];
const bucketParams = z.object({ id: rowId('id'), teamId: teamIdParam });

/** The advanced analytics table and the bucket calls. */
export function bucketRoutes(deps: { buckets: BucketsService; guard: WorkspaceGuard }) {
  const b = deps.buckets;
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const opts = scopedOptions(deps.guard);

    r.post(
      '/analytics/performadvanceanalytics',
      {
        ...scopedOptions(deps.guard, 'read'),
        schema: {
          tags,
          summary:
            'Bucket table: members matching a join/leave window, channels (AND/OR) and an activity filter, with their counts (or per day and channel); paged, with the total row count',
          body: advanceAnalyticsBody,
          response: { 200: advanceAnalyticsResponse },
        },
      },
      async (req) => b.advance(req.body),
    );

    r.post(
      '/analytics/exportadvanceanalytics',
      {
        ...scopedOptions(deps.guard, 'read'),
        schema: {
          tags,
          summary:
            'CSV of every row of the bucket table (Date of Data, Member Name, Member Email ID, Channel Name, Messages, Reactions, Replies, Activity)',
          body: advanceAnalyticsFilter,
          produces: ['text/csv'],
        },
      },
      async (req, reply) => sendCsv(reply, b.csv(req.body), `${BUCKET_CSV_TITLE}.csv`),
    );

    r.post(
      '/bucket/createbucket',
      {
        ...opts,
        schema: {
          tags,
          summary: 'Saves a bucket definition (not run yet: last_execute null); 409 when the name exists',
          body: createBucketBody,
          response: { 201: createBucketResponse },
        },
      },
      async (req, reply) => {
        const made = await b.create(req.body.team_id, req.body.bucket_name, req.body.data);
        return reply.code(201).send({ data: made, message: `Bucket '${made.name}' created` });
      },
    );

    r.get(
      '/bucket/getbuckets/:teamId',
      {
        ...opts,
        schema: {
          tags,
          summary: 'The workspace’s buckets, newest first',
          params: z.object({ teamId: teamIdParam }),
          response: { 200: bucketsResponse },
        },
      },
      async (req) => ({ data: await b.list(req.params.teamId) }),
    );

    r.post(
      '/bucket/execute',
      {
        ...opts,
        schema: {
          tags,
          summary:
            'Runs a bucket on the current data and keeps the members found (data.bucketdata.last_execute)',
          body: executeBucketBody,
          response: { 200: executeBucketResponse },
        },
      },
      async (req) => b.execute(req.body.team_id, req.body.id),
    );

    r.get(
      '/bucket/getbucketres/:id/:teamId',
      {
        ...opts,
        schema: {
          tags,
          summary: "The last run's rows (for the CSV); empty before the first run",
          params: bucketParams,
          response: { 200: bucketResultResponse },
        },
      },
      async (req) => ({ data: await b.result(req.params.teamId, req.params.id) }),
    );

    r.post(
      '/bucket/addtags',
      {
        ...opts,
        schema: {
          tags,
          summary: "Adds tags to every member of the bucket's last run",
          body: bucketAddTagsBody,
          response: { 200: messageResponse.extend({ added: z.number() }) },
        },
      },
      async (req) =>
        b.addTags(
          req.body.team_id,
          req.body.id,
          req.body.tags.map((t) => t.id),
        ),
    );

    r.delete(
      '/bucket/deletebucket/:id/:teamId',
      {
        ...opts,
        schema: {
          tags,
          summary: 'Deletes a bucket and the members of its last run',
          params: bucketParams,
          response: { 200: messageResponse },
        },
      },
      async (req) => b.remove(req.params.teamId, req.params.id),
    );
  };
}
