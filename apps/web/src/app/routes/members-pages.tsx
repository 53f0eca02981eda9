import { MemberDetailPage } from '../../features/members/MemberDetailPage.tsx';
import { MembersPage } from '../../features/members/MembersPage.tsx';
import type {
  MessageActionsSlotProps,
  MessageMemberSlotProps,
  SendMessageSlotProps,
} from '../../features/members/slots.ts';
import { lazySlot } from './lazy-slot.tsx';

/*
 * The members pages with the sending feature's buttons (a feature never imports another: app/ composes).
 * The sending code (popups, editor) is its own chunk: the page shows at once, its buttons a moment later.
 */
const delivery = () => import('./delivery-slots.ts');
const SendMessage = lazySlot<SendMessageSlotProps>(() => delivery().then((m) => m.SendMessageButton));
const MessageMember = lazySlot<MessageMemberSlotProps>(() => delivery().then((m) => m.MessageMemberButton));
const MessageActions = lazySlot<MessageActionsSlotProps>(() => delivery().then((m) => m.MessageRowActions));
const MemberReplies = lazySlot<{ memberId: string }>(() => delivery().then((m) => m.MemberDmReplies));

export function MembersWithSending() {
  return <MembersPage SendMessage={SendMessage} />;
}

export function MemberDetailWithSending() {
  return (
    <MemberDetailPage
      MessageMember={MessageMember}
      MessageActions={MessageActions}
      MemberReplies={MemberReplies}
    />
  );
}

/** The members list's sending button, loaded beside the page on a cold load (see preloadDashboard). */
export const preloadSending = () => SendMessage.preload();
