import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { readSpec } from './helpers.ts';

type Node = Record<string, unknown>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * The 2020 spec flattens `oneOf` into a tuple-style `items: [a, b]` on non-array schemas (README caveat).
 * Left alone, JSON Schema ignores such `items` and the object would be unchecked; we restore it as `anyOf`.
 */
function restoreOneOf(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(restoreOneOf);
  if (!node || typeof node !== 'object') return node;
  const out: Node = {};
  for (const [k, v] of Object.entries(node as Node)) out[k] = restoreOneOf(v);
  if (Array.isArray(out.items) && out.type !== 'array') {
    out.anyOf = out.items;
    delete out.items;
  }
  return out;
}

/**
 * Known gaps of the 2020 spec against what Slack sends today, patched explicitly (each one named):
 * - objs_message lacks `edited`, `upload` (real fields on edited messages / file shares);
 * - objs_file lacks `title`;
 * - conversations.replies' per-message schemas forbid reactions, blocks, bot fields and edits, which real replies carry;
 * - chat.update types `message.blocks` as an object although blocks are an array everywhere else;
 * - conversations.history lacks `response_metadata` although it paginates with `next_cursor` (a known gap of Slack's published OpenAPI document).
 */
function patchKnownGaps(spec: Node): void {
  const defs = spec.definitions as Record<string, Node>;
  const msgProps = defs.objs_message?.properties as Node;
  msgProps.edited = { type: 'object', properties: { user: { type: 'string' }, ts: { type: 'string' } } };
  msgProps.upload = { type: 'boolean' };
  (defs.objs_file?.properties as Node).title = { type: 'string' };
  const paths = spec.paths as Record<string, Record<string, Node>>;
  const replies = (paths['/conversations.replies']?.get?.responses as Node)['200'] as Node;
  const items = ((replies.schema as Node).properties as Node).messages as Node;
  for (const variant of ((items.items as Node).anyOf as Node[]) ?? []) {
    Object.assign(variant.properties as Node, {
      reactions: { type: 'array', items: { $ref: '#/definitions/objs_reaction' } },
      blocks: { $ref: '#/definitions/blocks' },
      edited: msgProps.edited,
      bot_id: { $ref: '#/definitions/defs_bot_id' },
      bot_profile: { $ref: '#/definitions/objs_bot_profile' },
      client_msg_id: { type: 'string' },
      username: { type: 'string' },
      icons: msgProps.icons,
      reply_users: { type: 'array', items: { $ref: '#/definitions/defs_user_id' } },
      subtype: { type: 'string' },
      files: { type: 'array', items: { $ref: '#/definitions/objs_file' } },
      upload: { type: 'boolean' },
    });
  }
  const history = (paths['/conversations.history']?.get?.responses as Node)['200'] as Node;
  ((history.schema as Node).properties as Node).response_metadata = {
    type: 'object',
    additionalProperties: false,
    properties: { next_cursor: { type: 'string' } },
    required: ['next_cursor'],
  };
  const update = (paths['/chat.update']?.post?.responses as Node)['200'] as Node;
  (((update.schema as Node).properties as Node).message as Node).properties = {
    ...((((update.schema as Node).properties as Node).message as Node).properties as Node),
    blocks: { $ref: '#/definitions/blocks' },
  };
}

export function loadWebApiSchemas() {
  const spec = restoreOneOf(readSpec('web-api/slack_web_openapi_v2_without_examples.json')) as Node;
  patchKnownGaps(spec);
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ $id: 'slack', definitions: spec.definitions, paths: spec.paths });
  const cache = new Map<string, ValidateFunction>();
  const paths = spec.paths as Record<string, Record<string, Node>>;
  /** Validator for a method's 200 response schema, or undefined if the spec has none. */
  const forMethod = (method: string): ValidateFunction | undefined => {
    const entry = paths[`/${method}`];
    if (!entry) return undefined;
    const verb = Object.keys(entry)[0] as string;
    if (!((entry[verb]?.responses as Node | undefined)?.['200'] as Node | undefined)?.schema)
      return undefined;
    let v = cache.get(method);
    if (!v) {
      v = ajv.compile({ $ref: `slack#/paths/~1${method}/${verb}/responses/200/schema` });
      cache.set(method, v);
    }
    return v;
  };
  const eventWrapper = ajv.compile(readSpec('events-api/slack_common_event_wrapper_schema.json'));
  return { forMethod, eventWrapper, ajv };
}
