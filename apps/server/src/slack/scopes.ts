/**
 * The scopes the Slack app asks for, each with why: the OAuth install and the app manifest read these lists, the
 * manifest page shows the reasons, and a test checks that each scope is needed by a handled event or a called
 * method (slack/manifest.test.ts). A scope nobody needs is not asked for.
 */

/** Bot token scopes, asked for at install (and again at Add as Admin, which also reconnects a workspace). */
export const BOT_SCOPE_REASONS = {
  'channels:history':
    'Read messages in public channels: the history import and live messages (message.channels)',
  'channels:read': 'List public channels and their members; follow channel creations, renames and archives',
  'channels:join': 'Join public channels (new ones too), so that Slack sends the bot their messages',
  'groups:history': 'Read messages in private channels the bot was invited to (message.groups)',
  'groups:read': 'List the private channels the bot was invited to and their members; follow their renames',
  'im:history': 'Receive members’ replies in their DM with the bot (message.im), shown on Receipts',
  'im:write': 'Open a direct message with a member: DMs, welcome messages, forms and polls sent to people',
  'chat:write': 'Send messages, thread replies, forms and polls as the bot, and edit or delete them',
  'chat:write.customize': 'Send as a named bot (its own name and icon), when an admin chooses one',
  'chat:write.public': 'Post as the bot in public channels it has not joined',
  'files:write': 'Upload the images attached to a message',
  'pins:read': 'Follow pins and unpins in channels (pin_added, pin_removed)',
  'pins:write': 'Pin and unpin messages from the conversation workbench',
  'reactions:read': 'Count reactions (activity and emoji polls)',
  'reactions:write': 'React to messages from the workbench, and add an emoji poll’s options',
  'team:read': 'Read the workspace’s name, domain, icon and timezone',
  'emoji:read':
    'Show the workspace’s custom emoji in messages as in Slack (emoji.list; emoji_changed keeps them fresh)',
  'users:read': 'List members and follow joins, profile changes and deactivations',
  'users:read.email': 'Show members’ e-mail addresses and find members by a pasted e-mail list',
} as const satisfies Record<string, string>;

/**
 * User token scopes: for "Send as Admin" (messages, images, pins and reactions as the admin themselves) and for
 * knowing which channels the admin is in. Asked for only when an admin chooses "Add as Admin", never at install
 * (modules/workspaces/install.ts); the manifest lists them so that the app may ask for them then.
 */
export const USER_SCOPE_REASONS = {
  'chat:write': 'Send messages and replies as the admin',
  'files:write': 'Upload the images of a message sent as the admin',
  'im:write': 'Open a direct message from the admin to a member',
  'channels:read': 'Know which public channels the admin is in, before posting there as them',
  'groups:read': 'Know which private channels the admin is in, before posting there as them',
  'channels:history':
    'After an interruption, look in a public channel for a message already sent as the admin, so it is not sent twice',
  'groups:history':
    'After an interruption, look in a private channel for a message already sent as the admin, so it is not sent twice',
  'im:history':
    'After an interruption, look in a DM for a message already sent as the admin, so it is not sent twice',
  'pins:write': 'Pin and unpin messages as the admin',
  'reactions:write': 'React to messages as the admin',
} as const satisfies Record<string, string>;

export const BOT_SCOPES = Object.keys(BOT_SCOPE_REASONS) as (keyof typeof BOT_SCOPE_REASONS)[];
export const USER_SCOPES = Object.keys(USER_SCOPE_REASONS) as (keyof typeof USER_SCOPE_REASONS)[];

/** Each scope with its reason, as the manifest page lists them. */
export const scopeReasons = () => ({
  bot: BOT_SCOPES.map((scope) => ({ scope, reason: BOT_SCOPE_REASONS[scope] })),
  user: USER_SCOPES.map((scope) => ({ scope, reason: USER_SCOPE_REASONS[scope] })),
});
