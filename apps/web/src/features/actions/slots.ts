import type { ComponentType } from 'react';
import type { PeopleSlotProps } from './conversations/slots.ts';

/** The popups the Polls tab shows for selected voters (app/ composes them; without one, no such button). */
export type PollSlots = {
  /** Send DM to the selected voters. */
  SendDm?: ComponentType<PeopleSlotProps>;
};
