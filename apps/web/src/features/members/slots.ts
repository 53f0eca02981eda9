import type { ComponentType } from 'react';
import type { Audience } from '@flywheel/shared/delivery';

/**
 * What the sending feature adds to the members pages; app/ composes them (a feature never imports
 * another). Without a slot the page simply has no such button.
 */
export type SendMessageSlotProps = { audience: Audience; summary: string; onSent?(): void };
export type MessageMemberSlotProps = { memberId: string; name: string };
export type MessageActionsSlotProps = {
  channelId: string;
  ts: string;
  channelName: string;
  /** Known pin state: only Pin (or only Unpin) is offered. Unknown: both. */
  pinned?: boolean;
};

export type MembersSlots = {
  /** Members screen 'Send Message' (to the checked rows, or to everything filtered). */
  SendMessage?: ComponentType<SendMessageSlotProps>;
};

export type MemberDetailSlots = {
  /** The message button on the member detail's name row. */
  MessageMember?: ComponentType<MessageMemberSlotProps>;
  /** Reply (and pin, unpin, react) on the Actions tab's message rows. */
  MessageActions?: ComponentType<MessageActionsSlotProps>;
  /** Below the Actions tab's log: what the member wrote back in their DM with the bot. */
  MemberReplies?: ComponentType<{ memberId: string }>;
};
