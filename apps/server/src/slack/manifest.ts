import type { AppsManifestCreateArguments } from '@slack/web-api';
import type { SlackCredential } from '@flywheel/shared/workspace';
import type { Module } from '../modules/module.ts';
import { eventListenersOf } from '../modules/intake/listeners.ts';
import { INGESTED_EVENT_TYPES } from '../modules/workspace-data/ingest.ts';
import { BOT_SCOPES, USER_SCOPES } from './client.ts';

export type SlackAppManifest = AppsManifestCreateArguments['manifest'];

/**
 * How an event type the code handles is subscribed to in a Slack app, and the scope Slack requires for it. A
 * message arrives as `message` whatever the conversation; the subscription names the kind of conversation.
 */
const SUBSCRIPTIONS: Record<string, { events: string[]; scopes: string[] }> = {
  message: {
    events: ['message.channels', 'message.groups', 'message.im'],
    scopes: ['channels:history', 'groups:history', 'im:history'],
  },
  reaction_added: { events: ['reaction_added'], scopes: ['reactions:read'] },
  reaction_removed: { events: ['reaction_removed'], scopes: ['reactions:read'] },
  team_join: { events: ['team_join'], scopes: ['users:read'] },
  user_change: { events: ['user_change'], scopes: ['users:read'] },
  member_joined_channel: { events: ['member_joined_channel'], scopes: ['channels:read', 'groups:read'] },
  member_left_channel: { events: ['member_left_channel'], scopes: ['channels:read', 'groups:read'] },
  channel_created: { events: ['channel_created'], scopes: ['channels:read'] },
  channel_rename: { events: ['channel_rename'], scopes: ['channels:read'] },
  channel_archive: { events: ['channel_archive'], scopes: ['channels:read'] },
  channel_unarchive: { events: ['channel_unarchive'], scopes: ['channels:read'] },
  channel_deleted: { events: ['channel_deleted'], scopes: ['channels:read'] },
  group_rename: { events: ['group_rename'], scopes: ['groups:read'] },
  group_archive: { events: ['group_archive'], scopes: ['groups:read'] },
  group_unarchive: { events: ['group_unarchive'], scopes: ['groups:read'] },
  group_deleted: { events: ['group_deleted'], scopes: ['groups:read'] },
  pin_added: { events: ['pin_added'], scopes: ['pins:read'] },
  pin_removed: { events: ['pin_removed'], scopes: ['pins:read'] },
  emoji_changed: { events: ['emoji_changed'], scopes: ['emoji:read'] },
  app_uninstalled: { events: ['app_uninstalled'], scopes: [] },
  tokens_revoked: { events: ['tokens_revoked'], scopes: [] },
};

/**
 * Every event type the product handles: what workspace-data applies and what any of the process's modules listens
 * to (the module list is passed in, not imported: the list itself leads back here through the workspaces module).
 */
export function handledEventTypes(modules: readonly Module[]): string[] {
  return [...new Set([...INGESTED_EVENT_TYPES, ...eventListenersOf(modules).keys()])].sort();
}

/** The subscriptions for the handled events; an event type with no known subscription is an error (test-guarded). */
export function subscriptionsOf(types: readonly string[]) {
  const missing = types.filter((t) => !SUBSCRIPTIONS[t]);
  if (missing.length) throw new Error(`No Slack subscription known for event type(s): ${missing.join(', ')}`);
  return {
    events: [...new Set(types.flatMap((t) => SUBSCRIPTIONS[t]!.events))].sort(),
    scopes: [...new Set(types.flatMap((t) => SUBSCRIPTIONS[t]!.scopes))].sort(),
  };
}

/**
 * The Slack app manifest for this build: its scopes are the ones OAuth asks for (slack/scopes.ts: the bot's at
 * install, the user's at Add as Admin, which the app's configuration must list too), its bot events are every event the code handles, its URLs are this installation's. With `socketMode` the events and
 * interactivity come over Socket Mode: `socket_mode_enabled` and no request URLs (the OAuth redirect stays). Paste
 * it at https://api.slack.com/apps?new_app=1 ("From a manifest"), or open manifestCreateUrl().
 */
export function slackAppManifest(
  publicUrl: string,
  opts: { name?: string; socketMode?: boolean; eventTypes: readonly string[] },
): SlackAppManifest {
  const base = publicUrl.replace(/\/+$/, '');
  const name = opts.name ?? 'Flywheel';
  const socket = opts.socketMode === true;
  return {
    display_information: {
      name,
      description: 'Community analytics, segments and messaging for this workspace',
      background_color: '#1c2b4a',
    },
    features: { bot_user: { display_name: name, always_online: true } },
    oauth_config: {
      redirect_urls: [`${base}/installworkspace`],
      scopes: { bot: [...BOT_SCOPES] as never, user: [...USER_SCOPES] as never },
    },
    settings: {
      event_subscriptions: {
        ...(socket ? {} : { request_url: `${base}/slack/events` }),
        bot_events: subscriptionsOf(opts.eventTypes).events as never,
      },
      interactivity: socket
        ? { is_enabled: true }
        : { is_enabled: true, request_url: `${base}/slack/interactivity` },
      org_deploy_enabled: false,
      socket_mode_enabled: socket,
      token_rotation_enabled: false,
    },
  };
}

/** Slack's "create an app from this manifest" page, with the manifest filled in. */
export const manifestCreateUrl = (manifest: SlackAppManifest) =>
  `https://api.slack.com/apps?new_app=1&manifest_json=${encodeURIComponent(JSON.stringify(manifest))}`;

/**
 * What the server needs from the Slack app, in the order one sets it up, with what each is for and where Slack
 * shows it; `set` says which this installation has (from its configuration; values never leave the server).
 */
export function slackCredentials(set: Partial<Record<string, boolean>>): SlackCredential[] {
  const all: Omit<SlackCredential, 'set'>[] = [
    {
      name: 'PUBLIC_URL',
      required: true,
      what: 'This installation’s address: the manifest’s redirect and request URLs, and the links in e-mails',
      where: 'Your own: the HTTPS address people open Flywheel at',
    },
    {
      name: 'SLACK_CLIENT_ID',
      required: true,
      what: 'Identifies the app when a workspace admin installs it (“Add to Slack”)',
      where: 'Basic Information → App Credentials → Client ID',
    },
    {
      name: 'SLACK_CLIENT_SECRET',
      required: true,
      what: 'Exchanges the install’s code for the workspace’s tokens (kept on the server, sealed)',
      where: 'Basic Information → App Credentials → Client Secret',
    },
    {
      name: 'SLACK_SIGNING_SECRET',
      required: true,
      what: 'Proves that events and button clicks really come from Slack (each request is checked)',
      where: 'Basic Information → App Credentials → Signing Secret',
    },
    {
      name: 'SLACK_APP_TOKEN',
      required: false,
      what: 'Socket Mode: events and button clicks over a connection Flywheel opens, so Slack needs no public address to reach (behind a firewall, on a laptop)',
      where:
        'Basic Information → App-Level Tokens → Generate (scope connections:write), with Socket Mode turned on',
    },
  ];
  return all.map((c) => ({ ...c, set: set[c.name] ?? false }));
}
