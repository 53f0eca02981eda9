/** Wire shapes shared across the emulator (the subset of Slack objects it produces). */

export type Reaction = { name: string; users: string[]; count: number };

export type BotProfile = {
  id: string;
  deleted: boolean;
  name: string;
  updated: number;
  app_id: string;
  icons: { image_36: string; image_48: string; image_72: string };
  team_id: string;
};

export type SlackFile = {
  id: string;
  created: number;
  timestamp: number;
  name: string;
  title: string;
  mimetype: string;
  filetype: string;
  pretty_type: string;
  user: string;
  size: number;
  is_public: boolean;
  url_private: string;
  url_private_download: string;
  permalink: string;
  channels: string[];
};

export type SlackMessage = {
  type: 'message';
  ts: string;
  text: string;
  user?: string;
  subtype?: string;
  team?: string;
  thread_ts?: string;
  parent_user_id?: string;
  reply_count?: number;
  reply_users?: string[];
  reply_users_count?: number;
  latest_reply?: string;
  reactions?: Reaction[];
  edited?: { user: string; ts: string };
  bot_id?: string;
  bot_profile?: BotProfile;
  username?: string;
  icons?: { emoji?: string; image_64?: string };
  blocks?: unknown[];
  attachments?: unknown[];
  files?: SlackFile[];
  upload?: boolean;
  inviter?: string;
  client_msg_id?: string;
  /** The channels the message is pinned in (pins.add / pins.remove). */
  pinned_to?: string[];
  /** Message metadata (chat.postMessage `metadata`): returned by history only with include_all_metadata. */
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
};

export type Json = Record<string, unknown>;

/** A message as ground truth reports it: the API shape plus where it lives and what happened to it. */
export type TruthMessage = SlackMessage & {
  channel: string;
  /** true when the message was removed through chat.delete or the member page. */
  deleted?: boolean;
  /** Where the message came from: the seeded generator or a live write (API, page, live trickle). */
  origin: 'generated' | 'live';
};
