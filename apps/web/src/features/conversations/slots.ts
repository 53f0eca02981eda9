import type { ComponentType } from 'react';

/*
 * What the sending and members features add to the Threads, Posts and Mentions tabs; app/ composes them (a
 * feature never imports another). Without a slot the tab has no such button.
 */
export type ReplySlotProps = {
  opened: boolean;
  onClose(): void;
  channelId: string;
  ts: string;
  channelName: string;
  /** Replying to a mention: the reply marks it 'Seen'. */
  mentionId?: string | null;
  onSent?(): void;
};
export type PeopleSlotProps = { opened: boolean; onClose(): void; memberIds: string[]; onDone?(): void };

export type ConversationSlots = {
  /** The reply dialog (a reply in the message's thread, through the delivery engine). */
  Reply?: ComponentType<ReplySlotProps>;
  /** Send DM to the selected people. */
  SendDm?: ComponentType<PeopleSlotProps>;
  /** Add Tag to the selected people. */
  AddTag?: ComponentType<PeopleSlotProps>;
};
