import { z } from 'zod';

/**
 * The catalogue of Slack interactivity payloads (what Slack POSTs to /slack/interactivity, or sends in a Socket
 * Mode `interactive` envelope): one zod schema per payload type Flywheel reads, used by every module's listener
 * (`defineInteractivityListener` in modules/intake/listeners.ts takes its schema from here by the payload's type),
 * beside the Events API's catalogue (slack/events.ts). Loose like it: Slack adds fields freely and only the fields
 * named here are read; a listener tells its own payloads apart with `match` (an action_id, a view's callback_id).
 */

/** One element's action in a block_actions payload: a button's `value` (a select's choice is `selected_option`). */
const blockActionSchema = z.looseObject({ action_id: z.string(), value: z.string().optional() });

/**
 * A member pressed a button (or picked an option) in a message: the workspace, the member, the trigger_id a
 * modal opens with (valid 3 s), where the message is (`channel`, or the `container`'s channel_id), and the actions.
 */
export const blockActionsSchema = z.looseObject({
  type: z.literal('block_actions'),
  team: z.looseObject({ id: z.string().min(1) }),
  user: z.looseObject({ id: z.string().min(1) }),
  trigger_id: z.string().min(1),
  channel: z.looseObject({ id: z.string() }).nullish(),
  container: z.looseObject({ channel_id: z.string().optional() }).nullish(),
  actions: z.array(blockActionSchema).min(1),
});

/**
 * One input's state in a submitted view, in the shape Slack sends for its element type: `value`
 * (plain_text_input, number_input), `selected_option` (static_select, radio_buttons), `selected_options`
 * (checkboxes, multi-selects), `selected_date` (datepicker, YYYY-MM-DD).
 */
export const viewStateValueSchema = z.looseObject({
  type: z.string().optional(),
  value: z.string().nullish(),
  selected_option: z.looseObject({ value: z.string().optional() }).nullish(),
  selected_options: z
    .array(z.looseObject({ value: z.string().optional() }))
    .max(100)
    .nullish(),
  selected_date: z.string().max(32).nullish(),
});

/**
 * A member submitted a modal: the view's callback_id (whose modal it is), its private_metadata (what the app
 * stored when it opened it) and `state.values` by block_id and action_id. `team` is null for a view opened in an
 * Enterprise Grid organisation; the member's `team_id` names the workspace then.
 */
export const viewSubmissionSchema = z.looseObject({
  type: z.literal('view_submission'),
  team: z.looseObject({ id: z.string().min(1) }).nullable(),
  user: z.looseObject({ id: z.string().min(1), team_id: z.string().optional() }),
  view: z.looseObject({
    callback_id: z.string().optional(),
    private_metadata: z.string().optional(),
    state: z.looseObject({ values: z.record(z.string(), z.record(z.string(), viewStateValueSchema)) }),
  }),
});

/**
 * Each interactivity payload type Flywheel reads, with its schema: the one place a listener's payload is declared.
 * Others Slack sends (shortcut, view_closed, dialog_submission, ...) have no listener and get an empty 200.
 */
export const slackInteractivityPayloads = {
  block_actions: blockActionsSchema,
  view_submission: viewSubmissionSchema,
} as const;
export type SlackInteractivityType = keyof typeof slackInteractivityPayloads;
export type SlackInteractionOf<T extends SlackInteractivityType> = z.infer<
  (typeof slackInteractivityPayloads)[T]
>;
