import { ActionsPage } from '../../features/actions/ActionsPage.tsx';
import type { PeopleSlotProps, ReplySlotProps } from '../../features/actions/conversations/slots.ts';
import { lazySlot } from './lazy-slot.tsx';

/*
 * Actions with the sending and members features' popups in its Threads, Posts and Mentions tabs (a feature
 * never imports another: app/ composes). The popups' code is its own chunk.
 */
const slots = () => import('./actions-slots.tsx');
const Reply = lazySlot<ReplySlotProps>(() => slots().then((m) => m.Reply));
const SendDm = lazySlot<PeopleSlotProps>(() => slots().then((m) => m.SendDm));
const AddTag = lazySlot<PeopleSlotProps>(() => slots().then((m) => m.AddTag));

export function ActionsWithSending() {
  return <ActionsPage Reply={Reply} SendDm={SendDm} AddTag={AddTag} />;
}
