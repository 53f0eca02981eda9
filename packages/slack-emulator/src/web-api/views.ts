import { jsonArg, strArg } from '../http/body.ts';
import type { Json } from '../types.ts';
import { authed, required, SlackError, type AuthedContext, type MethodDef } from './registry.ts';

const TRIGGER_ERRORS = {
  views: { expired: 'expired_trigger_id', exchanged: 'exchanged_trigger_id', invalid: 'invalid_trigger_id' },
  dialog: { expired: 'trigger_expired', exchanged: 'trigger_exchanged', invalid: 'invalid_trigger' },
} as const;

function useTrigger(c: AuthedContext, kind: 'views' | 'dialog') {
  const id = strArg(c.params.trigger_id) ?? strArg(c.params.interactivity_pointer);
  if (!id)
    throw new SlackError('invalid_arguments', {
      response_metadata: { messages: ['[ERROR] missing required field: trigger_id'] },
    });
  const { code, trigger } = c.core.interactivity.consumeTrigger(id);
  if (code !== 'ok' || !trigger) throw new SlackError(TRIGGER_ERRORS[kind][code === 'ok' ? 'invalid' : code]);
  if (trigger.teamId !== c.team.id) throw new SlackError(TRIGGER_ERRORS[kind].invalid);
  return trigger;
}

const invalid = (message: string, pointer: string) =>
  new SlackError('invalid_arguments', {
    response_metadata: { messages: [`[ERROR] ${message} [json-pointer:${pointer}]`] },
  });
const OPTION_LIMITS: Record<string, number> = { checkboxes: 10, radio_buttons: 10, static_select: 100 };
const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * The input elements' own rules, as views.open refuses them (Block Kit: checkboxes and radio_buttons hold 1 to
 * 10 options, a static_select up to 100; a number_input needs `is_decimal_allowed`, its bounds are number
 * strings, whole unless decimals are allowed, min not above max; a datepicker's initial_date is YYYY-MM-DD).
 */
function checkElements(view: Json): void {
  ((view.blocks ?? []) as Json[]).forEach((block, i) => {
    const el = block?.element as Json | undefined;
    if (block?.type !== 'input' || !el || typeof el !== 'object') return;
    const at = `/view/blocks/${i}/element`;
    const limit = OPTION_LIMITS[String(el.type)];
    if (limit !== undefined) {
      const options = el.options;
      if (!Array.isArray(options) || options.length === 0)
        throw invalid('missing required field: options', at);
      if (options.length > limit) throw invalid(`must provide at most ${limit} items`, `${at}/options`);
    }
    if (el.type === 'number_input') {
      if (typeof el.is_decimal_allowed !== 'boolean')
        throw invalid('missing required field: is_decimal_allowed', at);
      const bound = (key: 'min_value' | 'max_value' | 'initial_value') => {
        const v = el[key];
        if (v === undefined) return undefined;
        if (typeof v !== 'string' || !NUMBER.test(v) || (!el.is_decimal_allowed && v.includes('.')))
          throw invalid('must be a valid number', `${at}/${key}`);
        return Number(v);
      };
      const min = bound('min_value');
      const max = bound('max_value');
      bound('initial_value');
      if (min !== undefined && max !== undefined && min > max)
        throw invalid('min_value must be less than or equal to max_value', `${at}/min_value`);
    }
    if (el.type === 'datepicker' && el.initial_date !== undefined) {
      if (typeof el.initial_date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(el.initial_date))
        throw invalid('must be a valid date in the format YYYY-MM-DD', `${at}/initial_date`);
    }
  });
}

function viewArg(c: AuthedContext): Json {
  const raw = required(c, 'view');
  const view = jsonArg<Json>(c.params.view);
  if (!view || typeof view !== 'object') throw new SlackError('invalid_arguments');
  if ((typeof c.params.view === 'string' ? raw.length : JSON.stringify(view).length) > 250_000)
    throw new SlackError('view_too_large');
  if (view.type !== 'modal' && view.type !== 'home')
    throw new SlackError('invalid_arguments', {
      response_metadata: { messages: ['[ERROR] must be a known view type [json-pointer:/view/type]'] },
    });
  if (view.type === 'modal' && !view.title)
    throw new SlackError('invalid_arguments', {
      response_metadata: { messages: ['[ERROR] missing required field: title [json-pointer:/view]'] },
    });
  if (!Array.isArray(view.blocks))
    throw new SlackError('invalid_arguments', {
      response_metadata: { messages: ['[ERROR] missing required field: blocks [json-pointer:/view]'] },
    });
  checkElements(view);
  return view;
}

export const viewMethods: Record<string, MethodDef> = {
  'views.open': {
    tier: 4,
    handle: (call) => {
      const c = authed(call);
      const view = viewArg(c);
      const trigger = useTrigger(c, 'views');
      return { ok: true, view: c.core.interactivity.openView(c.team.id, trigger.userId, view) };
    },
  },
  'views.push': {
    tier: 4,
    handle: (call) => {
      const c = authed(call);
      const view = viewArg(c);
      const trigger = useTrigger(c, 'views');
      return { ok: true, view: c.core.interactivity.openView(c.team.id, trigger.userId, view, true) };
    },
  },
  'views.update': {
    tier: 4,
    handle: (call) => {
      const c = authed(call);
      const view = viewArg(c);
      const updated = c.core.interactivity.updateView(required(c, 'view_id'), view);
      if (!updated) throw new SlackError('not_found');
      return { ok: true, view: updated };
    },
  },
  'dialog.open': {
    tier: 4,
    handle: (call) => {
      const c = authed(call);
      const dialog = jsonArg<Json>(c.params.dialog);
      if (!dialog || typeof dialog !== 'object')
        throw new SlackError('invalid_arguments', {
          response_metadata: { messages: ['[ERROR] missing required field: dialog'] },
        });
      const elements = dialog.elements;
      const problems: string[] = [];
      if (!dialog.title) problems.push('title is required');
      if (!dialog.callback_id) problems.push('callback_id is required');
      if (!Array.isArray(elements) || elements.length === 0 || elements.length > 10)
        problems.push('elements must hold 1 to 10 items');
      if (problems.length > 0)
        throw new SlackError('validation_errors', { response_metadata: { messages: problems } });
      const trigger = useTrigger(c, 'dialog');
      c.core.interactivity.openDialog(c.team.id, trigger.userId, dialog, trigger.channel);
      return { ok: true };
    },
  },
};
