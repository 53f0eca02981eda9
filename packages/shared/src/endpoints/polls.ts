import { z } from 'zod';
import { idempotencyHeaders } from '../delivery.ts';
import { defineEndpoint, teamIdParam } from '../endpoint.ts';
import { messageResponse } from '../http.ts';
import { MAX_ROW_ID } from '../input.ts';
import {
  createPollBody,
  createRecurringPollBody,
  pollExportResponse,
  pollInfoResponse,
  pollResponse,
  pollsResponse,
  recurringPollResponse,
  recurringPollsResponse,
  reopenPollBody,
  votersResponse,
} from '../polls.ts';

/*
 * Polls (apps/server/src/modules/polls/routes.ts): one-off polls, their details, voters and export, and
 * recurring polls; the creating calls take an Idempotency-Key.
 */

const tags = ['polls'] as const;
const teamParam = z.object({ teamId: teamIdParam });
const pollParams = teamParam.extend({
  pollId: z.coerce
    .number()
    .int()
    .positive('pollId must be a poll id')
    .max(MAX_ROW_ID, 'pollId must be a poll id'),
});
const recurringParams = teamParam.extend({
  recurringId: z.coerce
    .number()
    .int()
    .positive('recurringId must be a recurring poll id')
    .max(MAX_ROW_ID, 'recurringId must be a recurring poll id'),
});
const listQuery = z.object({
  search: z.string().max(200, 'search is too long (200 characters at most)').optional(),
});

export const createPoll = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/poll/createpoll',
  scope: 'act',
  tags,
  summary:
    'Create a poll in channels: instant, or scheduled (post_at 15 minutes to 30 days ahead); up to 5 options, each voted for with its emoji reaction; ends at expiry_ts (default 24 hours after it starts)',
  headers: idempotencyHeaders,
  body: createPollBody,
  response: { 201: pollResponse },
});

export const createRecurringPoll = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/poll/createrecurringpoll',
  scope: 'act',
  tags,
  summary:
    "Create a recurring poll: posted in channels Every Day or Weekly (days) at time (HH:MM, the workspace's timezone), each occurrence a poll of its own open for duration_hours",
  headers: idempotencyHeaders,
  body: createRecurringPollBody,
  response: { 201: recurringPollResponse },
});

export const getRecurringPolls = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/poll/getrecurringpolls/:teamId',
  scope: 'read',
  tags,
  summary: "The workspace's recurring polls with their next run and the polls they posted",
  params: teamParam,
  response: { 200: recurringPollsResponse },
});

export const deleteRecurringPoll = /* @__PURE__ */ defineEndpoint({
  method: 'DELETE',
  path: '/poll/deleterecurringpoll/:recurringId/:teamId',
  scope: 'act',
  tags,
  summary: 'Stops a recurring poll: no later poll is posted (the polls it posted stay)',
  params: recurringParams,
  response: { 200: messageResponse },
});

export const getPolls = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/poll/getpolls/:teamId',
  scope: 'read',
  tags,
  summary: "The workspace's polls, newest first, with their options' counts (search in question and creator)",
  params: teamParam,
  query: listQuery,
  response: { 200: pollsResponse },
});

export const getPollInfo = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/poll/getpollinfo/:pollId/:teamId',
  scope: 'read',
  tags,
  summary: 'One poll with its options and their counts',
  params: pollParams,
  response: { 200: pollInfoResponse },
});

export const getPollVoters = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/poll/memberpollinfo/:pollId/:teamId',
  scope: 'read',
  tags,
  summary:
    "A poll's voters: member, e-mail, name and the option voted for (newest first); none for an anonymous poll",
  params: pollParams,
  response: { 200: votersResponse },
});

export const exportPollInfo = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/poll/exportpollinfo/:pollId/:teamId',
  scope: 'read',
  tags,
  summary:
    'The rows of PollDetails.csv: email, value (the option voted for), name; an anonymous poll: each option with its votes, no email or name',
  params: pollParams,
  response: { 200: pollExportResponse },
});

export const closePoll = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/poll/closepoll/:pollId/:teamId',
  scope: 'act',
  tags,
  summary: 'Closes an open poll now: votes are refused from then on, its messages show the final results',
  params: pollParams,
  response: { 200: pollResponse },
});

export const reopenPoll = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/poll/reopenpoll/:pollId/:teamId',
  scope: 'act',
  tags,
  summary:
    'Opens a closed poll again until expiry_ts (default: its end, or 24 hours from now when that has passed)',
  params: pollParams,
  body: reopenPollBody.optional(),
  response: { 200: pollResponse },
});

export const deletePoll = /* @__PURE__ */ defineEndpoint({
  method: 'DELETE',
  path: '/poll/deletepoll/:pollId/:teamId',
  scope: 'act',
  tags,
  summary: 'Deletes a poll; its messages are removed from Slack (chat.delete) once they are all posted',
  params: pollParams,
  response: { 200: messageResponse },
});
