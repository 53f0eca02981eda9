import type { Sender } from '@flywheel/shared/delivery';

/** Who sends: the bot, or an admin (adminUser: that admin's Slack user id). */
export type SenderChoice = { sender: Sender | null; adminUser: string | null };
export type ChosenSender = { sender: Sender; adminUser: string | null };

export const NO_SENDER: SenderChoice = { sender: null, adminUser: null };

/** The Send-DM popup says 'choose a sender'; the Members screen says 'Choose a Sender'. */
export const DM_CHOOSE_SENDER = 'choose a sender';

export const isChosen = (c: SenderChoice): c is ChosenSender =>
  c.sender === 'bot' || (c.sender === 'admin' && !!c.adminUser);
