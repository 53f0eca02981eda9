import { z } from 'zod';
import {
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
} from '../buckets.ts';
import { defineEndpoint, teamIdParam } from '../endpoint.ts';
import { messageResponse } from '../http.ts';
import { rowId } from '../input.ts';

/* The advanced analytics table and the bucket calls (apps/server/src/modules/buckets/routes.ts). */

const tags = ['buckets'] as const;
const bucketParams = z.object({ id: rowId('id'), teamId: teamIdParam });

export const performAdvanceAnalytics = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/analytics/performadvanceanalytics',
  scope: 'read',
  tags,
  summary:
    'Bucket table: members matching a join/leave window, channels (AND/OR) and an activity filter, with their counts (or per day and channel); paged, with the total row count',
  body: advanceAnalyticsBody,
  response: { 200: advanceAnalyticsResponse },
});

export const exportAdvanceAnalytics = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/analytics/exportadvanceanalytics',
  scope: 'read',
  tags,
  summary:
    'CSV of every row of the bucket table (Date of Data, Member Name, Member Email ID, Channel Name, Messages, Reactions, Replies, Activity)',
  body: advanceAnalyticsFilter,
  produces: ['text/csv'],
});

export const createBucket = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/bucket/createbucket',
  scope: 'act',
  tags,
  summary: 'Saves a bucket definition (not run yet: last_execute null); 409 when the name exists',
  body: createBucketBody,
  response: { 201: createBucketResponse },
});

export const getBuckets = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/bucket/getbuckets/:teamId',
  scope: 'read',
  tags,
  summary: 'The workspace’s buckets, newest first',
  params: z.object({ teamId: teamIdParam }),
  response: { 200: bucketsResponse },
});

export const executeBucket = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/bucket/execute',
  scope: 'act',
  tags,
  summary: 'Runs a bucket on the current data and keeps the members found (data.bucketdata.last_execute)',
  body: executeBucketBody,
  response: { 200: executeBucketResponse },
});

export const getBucketResult = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/bucket/getbucketres/:id/:teamId',
  scope: 'read',
  tags,
  summary: "The last run's rows (for the CSV); empty before the first run",
  params: bucketParams,
  response: { 200: bucketResultResponse },
});

export const addBucketTags = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/bucket/addtags',
  scope: 'act',
  tags,
  summary: "Adds tags to every member of the bucket's last run",
  body: bucketAddTagsBody,
  response: { 200: messageResponse.extend({ added: z.number() }) },
});

export const deleteBucket = /* @__PURE__ */ defineEndpoint({
  method: 'DELETE',
  path: '/bucket/deletebucket/:id/:teamId',
  scope: 'act',
  tags,
  summary: 'Deletes a bucket and the members of its last run',
  params: bucketParams,
  response: { 200: messageResponse },
});
