import { z } from 'zod';
import { idempotencyHeaders } from '../delivery.ts';
import { defineEndpoint, teamIdParam } from '../endpoint.ts';
import {
  createFormBody,
  executeFormBody,
  executeFormResponse,
  FORM_CSV_TITLE,
  formInstancesResponse,
  formResponse,
  formResponsesBody,
  formResponsesResponse,
  formsListResponse,
} from '../forms.ts';
import { messageResponse } from '../http.ts';
import { safeText } from '../input.ts';

/*
 * Forms (apps/server/src/modules/forms/routes.ts): the Form Table, its instances and their responses; the
 * creating and sending calls take an Idempotency-Key, and the two POSTs of an instance's responses only read.
 */

const tags = ['forms'] as const;
const teamParam = z.object({ teamId: teamIdParam });
const formId = z.coerce
  .number()
  .int()
  .positive('the form id must be a master_form_id')
  .max(2_147_483_647, 'the form id must be a master_form_id');
const listQuery = z.object({
  search: z.string().max(200, 'search is too long (200 characters at most)').optional(),
});

export const createForm = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/actions/createform',
  scope: 'act',
  tags,
  summary:
    "Create Form: questions (descriptive, mcq, shortDesc), acknowledgement, sender and targets; sent now (instant), once at post_at (DD/MM/YYYY HH:MM) or recurring Every Day / Weekly at time HH:MM, in the workspace's timezone",
  headers: idempotencyHeaders,
  body: createFormBody,
  response: { 201: formResponse },
});

export const executeForm = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/actions/executeform',
  scope: 'act',
  tags,
  summary: 'Send-form popup: a new instance of the form to members, channels (posted in) and tags',
  headers: idempotencyHeaders,
  body: executeFormBody,
  response: { 200: executeFormResponse },
});

export const getForms = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/actions/getforms/:teamId',
  scope: 'read',
  tags,
  summary: "The workspace's forms, newest first (search in name and description)",
  params: teamParam,
  query: listQuery,
  response: { 200: formsListResponse },
});

// The API's description names this call with two path segments; the second has no meaning we know of.
export const getFormsWithSegment = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/actions/getforms/:teamId/:segment',
  scope: 'read',
  tags,
  summary:
    'The same list as /actions/getforms/{teamId}: the second segment is accepted and not used (search with ?search=)',
  params: teamParam.extend({
    segment: safeText('the second path segment', 100),
  }),
  query: listQuery,
  response: { 200: formsListResponse },
});

export const deleteForm = /* @__PURE__ */ defineEndpoint({
  method: 'DELETE',
  path: '/actions/deleteform/:teamId/:id',
  scope: 'act',
  tags,
  summary: 'Deletes a form: it leaves the table and its future recurrences are not sent',
  params: teamParam.extend({ id: formId }),
  response: { 200: messageResponse },
});

export const getFormInstances = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/actions/getallforminstances/:teamId/:id',
  scope: 'read',
  tags,
  summary: "Form Instances popup: the form's sends, newest first, with their response counts",
  params: teamParam.extend({ id: formId }),
  response: { 200: formInstancesResponse },
});

export const getFormResponses = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/actions/getformresponses',
  scope: 'read',
  tags,
  summary: "Form instance data page: the instance's responses (name, e-mail and an answer per question)",
  body: formResponsesBody,
  response: { 200: formResponsesResponse },
});

export const exportFormResponse = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/actions/exportformresponse',
  scope: 'read',
  tags,
  summary: `'${FORM_CSV_TITLE}' CSV of an instance: Name, Email, Submitted At and one column per question`,
  body: formResponsesBody,
  produces: ['text/csv'],
});
