/**
 * The audit log's action kinds: a stable name and a short label for every route that acts on or manages a
 * workspace. audit.test.ts fails when an acting route has no entry here (or an entry names no route), so a new
 * route gets its kind on purpose. A route missing here still records, with the kind `defaultKind` derives.
 */
export type AuditAction = {
  kind: string;
  label: string;
  /** A label from the call's body, where one route does two things (activate or stop a workflow). */
  labelOf?: (body: Record<string, unknown>) => string | undefined;
};

export const AUDIT_ACTIONS: Record<string, AuditAction> = {
  // workspace
  'POST /api/v0/workspaces/inviteadmin': { kind: 'admin.invite', label: 'Invited an admin' },
  'POST /api/v0/alterbot/uploadinfo': { kind: 'bot.update', label: "Changed the bot's name or image" },
  'POST /api/v0/workspaces/setrole': { kind: 'admin.role', label: "Changed an admin's role" },
  'POST /api/v0/workspaces/removeadmin': { kind: 'admin.remove', label: 'Removed an admin' },
  'POST /api/v0/workspaces/revokeinvitation': { kind: 'admin.uninvite', label: 'Withdrew an invitation' },
  // API keys
  'POST /api/v0/apikeys/create': { kind: 'apikey.create', label: 'Created an API key' },
  'POST /api/v0/apikeys/revoke': { kind: 'apikey.revoke', label: 'Revoked an API key' },
  // tags
  'POST /api/v0/tags/createtag': { kind: 'tag.create', label: 'Created a tag' },
  'POST /api/v0/tags/addtagtousers': { kind: 'tag.add', label: 'Added tags to members' },
  'DELETE /api/v0/tags/removetagfromuser/:teamId/:memberId/:tagId': {
    kind: 'tag.remove',
    label: 'Removed a tag from a member',
  },
  // tasks (home)
  'POST /api/v0/homepage/createtasks': { kind: 'task.create', label: 'Created a task' },
  'PATCH /api/v0/homepage/edittask': { kind: 'task.edit', label: 'Edited a task' },
  'PATCH /api/v0/homepage/droptask': { kind: 'task.move', label: 'Moved a task' },
  'DELETE /api/v0/homepage/deletetask/:taskId/:teamId': { kind: 'task.delete', label: 'Deleted a task' },
  // buckets
  'POST /api/v0/bucket/createbucket': { kind: 'bucket.create', label: 'Created a bucket' },
  'POST /api/v0/bucket/execute': { kind: 'bucket.run', label: 'Ran a bucket' },
  'POST /api/v0/bucket/addtags': { kind: 'bucket.tag', label: "Tagged a bucket's members" },
  'DELETE /api/v0/bucket/deletebucket/:id/:teamId': { kind: 'bucket.delete', label: 'Deleted a bucket' },
  // sends
  'POST /api/v0/quickaction/sendmessage': { kind: 'send.message', label: 'Sent a message' },
  'POST /api/v0/quickaction/dmtomultipleusers': { kind: 'send.bulk_dm', label: 'Sent a bulk DM' },
  'POST /api/v0/member/directmessage': { kind: 'send.dm', label: 'Sent a DM to a member' },
  'POST /api/v0/quickaction/sendtest': { kind: 'send.test', label: 'Sent a test message to self' },
  'POST /api/v0/quickaction/replytothread': { kind: 'send.thread_reply', label: 'Replied in a thread' },
  'POST /api/v0/quickaction/pinpost': { kind: 'message.pin', label: 'Pinned a message' },
  'POST /api/v0/quickaction/unpinpost': { kind: 'message.unpin', label: 'Unpinned a message' },
  'POST /api/v0/quickaction/addreaction': { kind: 'message.react', label: 'Added a reaction' },
  'POST /api/v0/quickaction/uploadimage': { kind: 'image.upload', label: 'Uploaded an image' },
  'POST /api/v0/receipts/retry': { kind: 'send.retry', label: 'Retried failed recipients' },
  'POST /api/v0/mentions/replytomention': { kind: 'send.mention_reply', label: 'Replied to a mention' },
  'POST /api/v0/mentions/addreaction': { kind: 'mention.react', label: 'Reacted to a mention' },
  'POST /api/v0/questions/markhandled': { kind: 'question.handled', label: 'Marked a question handled' },
  // automations and schedules
  'POST /api/v0/actions/createautomation': { kind: 'automation.create', label: 'Created an automation' },
  'POST /api/v0/actions/createscheduled': { kind: 'schedule.create', label: 'Scheduled a message' },
  'PATCH /api/v0/actions/updateactions': { kind: 'action.edit', label: 'Edited an automation or schedule' },
  'DELETE /api/v0/actions/deleteaction/:teamId/:id': {
    kind: 'action.delete',
    label: 'Deleted an automation or schedule',
  },
  // forms
  'POST /api/v0/actions/createform': { kind: 'form.create', label: 'Created a form' },
  'POST /api/v0/actions/executeform': { kind: 'form.send', label: 'Sent a form' },
  'DELETE /api/v0/actions/deleteform/:teamId/:id': { kind: 'form.delete', label: 'Deleted a form' },
  // polls
  'POST /api/v0/poll/createpoll': { kind: 'poll.create', label: 'Created a poll' },
  'DELETE /api/v0/poll/deletepoll/:pollId/:teamId': { kind: 'poll.delete', label: 'Deleted a poll' },
  'POST /api/v0/poll/createrecurringpoll': {
    kind: 'poll.create_recurring',
    label: 'Created a recurring poll',
  },
  'DELETE /api/v0/poll/deleterecurringpoll/:recurringId/:teamId': {
    kind: 'poll.delete_recurring',
    label: 'Deleted a recurring poll',
  },
  'POST /api/v0/poll/closepoll/:pollId/:teamId': { kind: 'poll.close', label: 'Closed a poll early' },
  'POST /api/v0/poll/reopenpoll/:pollId/:teamId': { kind: 'poll.reopen', label: 'Reopened a poll' },
  // workflows
  'POST /api/v0/workflows/createworkflow': { kind: 'workflow.create', label: 'Created a workflow' },
  'PATCH /api/v0/workflows/pauseworkflow': {
    kind: 'workflow.pause',
    label: 'Activated or stopped a workflow',
    labelOf: (b) =>
      b.status === true ? 'Activated a workflow' : b.status === false ? 'Stopped a workflow' : undefined,
  },
  'DELETE /api/v0/workflows/:teamId/:workflowId': { kind: 'workflow.delete', label: 'Deleted a workflow' },
  // webhooks
  'POST /api/v0/webhooks/createwebhook': { kind: 'webhook.create', label: 'Created a webhook' },
  'PATCH /api/v0/webhooks/:teamId/:webhookId': {
    kind: 'webhook.update',
    label: 'Changed a webhook',
    labelOf: (b) =>
      b.enabled === true ? 'Resumed a webhook' : b.enabled === false ? 'Paused a webhook' : undefined,
  },
  'DELETE /api/v0/webhooks/:teamId/:webhookId': { kind: 'webhook.delete', label: 'Deleted a webhook' },
  'POST /api/v0/webhooks/:teamId/:webhookId/deliveries/:deliveryId/replay': {
    kind: 'webhook.replay',
    label: 'Replayed a webhook delivery',
  },
};

export const LOGIN_ROUTE = '/api/v0/auth/login';

/**
 * A kind from the route alone, for a route missing from the table: `POST /api/v0/poll/createpoll` ->
 * 'poll.createpoll' (the first two fixed path segments after /api/v0).
 */
export function defaultKind(method: string, route: string): string {
  const parts = route
    .replace(/^\/api\/v0\//, '')
    .split('/')
    .filter((p) => p && !p.startsWith(':'));
  const kind = parts.slice(0, 2).join('.').toLowerCase();
  return kind || method.toLowerCase();
}

export function actionOf(method: string, route: string): AuditAction {
  const known = AUDIT_ACTIONS[`${method} ${route}`];
  if (known) return known;
  const kind = defaultKind(method, route);
  return { kind, label: `${method} ${route}` };
}
