import { z } from 'zod';
import {
  activityRowsResponse,
  channelActivityResponse,
  createTaskBody,
  dropTaskBody,
  editTaskBody,
  memberActivityResponse,
  mostActiveBody,
  rangeQuery,
  summaryCardsResponse,
  taskResponse,
  tasksResponse,
  timeFilterBody,
  userAdminResponse,
} from '../analytics.ts';
import { defineEndpoint, teamIdParam, teamParams } from '../endpoint.ts';
import { messageResponse } from '../http.ts';
import { rowId } from '../input.ts';

/* Home: cards, charts, the content share, top members and the task board (apps/server/src/modules/home/routes.ts). */

const tags = ['home'] as const;
const deleteParams = z.object({
  taskId: rowId('taskId'),
  teamId: teamIdParam,
});

/** `?days=` or `?start_date=&end_date=` (the shared custom-range rules); default the last 7 days. */
const homeRange = rangeQuery;

export const workspaceHighlights = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/homepage/workspacehighlights/:teamId',
  scope: 'read',
  tags,
  summary: 'Workspace Highlights: messages, replies and reactions per local day',
  params: teamParams,
  query: homeRange,
  response: { 200: activityRowsResponse },
});

export const getChannelData = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/homepage/getchanneldata/:teamId',
  scope: 'read',
  tags,
  summary: 'Activity per channel (Activity, Top Channels), most active first',
  params: teamParams,
  query: homeRange,
  response: { 200: channelActivityResponse },
});

export const getCardsData = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/homepage/getcardsdata/:teamId',
  scope: 'read',
  tags,
  summary: 'Summary cards: the last 24 hours against the 24 before',
  params: teamParams,
  response: { 200: summaryCardsResponse },
});

export const getUserAdminData = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/homepage/getuseradmindata',
  scope: 'read',
  tags,
  summary: 'Content Generation: admins vs members share of messages + replies',
  body: timeFilterBody,
  response: { 200: userAdminResponse },
});

export const getMostActiveMembers = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/homepage/getmostactivemembers',
  scope: 'read',
  tags,
  summary: 'Top Performing Members: most active first (messages + replies + reactions)',
  body: mostActiveBody,
  response: { 200: memberActivityResponse },
});

export const getTasks = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/homepage/gettasks/:teamId',
  scope: 'read',
  tags,
  summary: 'The task board',
  params: teamParams,
  response: { 200: tasksResponse },
});

export const createTasks = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/homepage/createtasks',
  scope: 'act',
  tags,
  summary: 'Adds a task at the end of its column',
  body: createTaskBody,
  response: { 201: taskResponse },
});

export const editTask = /* @__PURE__ */ defineEndpoint({
  method: 'PATCH',
  path: '/homepage/edittask',
  scope: 'act',
  tags,
  summary: "Edits a task's title and/or description",
  body: editTaskBody,
  response: { 200: taskResponse },
});

export const dropTask = /* @__PURE__ */ defineEndpoint({
  method: 'PATCH',
  path: '/homepage/droptask',
  scope: 'act',
  tags,
  summary: 'Moves a task to a column and position (drag and drop); answers the whole board',
  body: dropTaskBody,
  response: { 200: tasksResponse },
});

export const deleteTask = /* @__PURE__ */ defineEndpoint({
  method: 'DELETE',
  path: '/homepage/deletetask/:taskId/:teamId',
  scope: 'act',
  tags,
  summary: 'Deletes a task',
  params: deleteParams,
  response: { 200: messageResponse },
});
