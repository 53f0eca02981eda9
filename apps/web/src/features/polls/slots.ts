import type { ComponentType } from 'react';

/** A popup for the selected voters (the conversation tabs' popups have the same shape: app/ gives both one). */
export type PeopleSlotProps = { opened: boolean; onClose(): void; memberIds: string[]; onDone?(): void };

/** The popups the Polls tab shows for selected voters (app/ composes them; without one, no such button). */
export type PollSlots = {
  /** Send DM to the selected voters. */
  SendDm?: ComponentType<PeopleSlotProps>;
};
