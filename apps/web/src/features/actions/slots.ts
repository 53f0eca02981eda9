import type { ComponentType } from 'react';

/**
 * What the sending feature adds to the Actions tabs; app/ composes them (a feature never imports another).
 * Without a slot the tab simply has no such button.
 */
export type SendDmSlotProps = {
  /** The members to DM (e.g. the poll voters checked). */
  memberIds: string[];
  /** Whom, in words ('To 3 selected voters'). */
  summary: string;
  disabled?: boolean;
  onSent?(): void;
};

export type ActionsSlots = {
  /** 'Send DM' to selected members (Poll Details' voters). */
  SendDm?: ComponentType<SendDmSlotProps>;
};
