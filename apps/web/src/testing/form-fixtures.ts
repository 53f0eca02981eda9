import { executeFormResponse, FORM_TEXTS, formRowSchema, type FormRow } from '@flywheel/shared/forms';
import { fixture, reply } from './fixture.ts';

/** A one-time form of the Form Table (sent by the bot, one short question), checked against the contract. */
export function formRow(id: number, title: string, extra: Partial<FormRow> = {}): FormRow {
  return fixture(formRowSchema, {
    master_form_id: id,
    form_title: title,
    form_description: `About ${title}`,
    sender: 'b',
    sender_label: 'Bot',
    admin_user: null,
    recurring: false,
    schedule: 'One time',
    frequency: 'onetime',
    days: [],
    time: null,
    cron_string: null,
    next_run: null,
    user_ids: [],
    channel_ids: [],
    tag_ids: [],
    sendtoworkspace: false,
    questions: [
      { question: 'How was it?', description: '', type: 'shortDesc', options: [], optional: false },
    ],
    ackMessage: 'Thanks',
    instances: 1,
    responses: 0,
    created_at: '2030-01-01T10:00:00.000Z',
    ...extra,
  });
}

/** POST /actions/executeform's answer: 'Form sent successfully' and the new instance. */
export function formSent(masterFormId: number, recipients = 1) {
  return reply(executeFormResponse, {
    message: FORM_TEXTS.sent,
    data: {
      form_id: 31,
      master_form_id: masterFormId,
      execution_time: '2030-01-01T10:00:00.000Z',
      label: '2030-01-01 10:00',
      responses: 0,
      status: 'due',
      recipients,
      receipt_id: 12,
    },
  });
}
