import { MessageMemberButton } from '../../features/delivery/components/MessageMemberButton.tsx';
import { MessageRowActions } from '../../features/delivery/components/MessageRowActions.tsx';
import { SendMessageButton } from '../../features/delivery/components/SendMessageButton.tsx';
import { MemberDetailPage } from '../../features/members/MemberDetailPage.tsx';
import { MembersPage } from '../../features/members/MembersPage.tsx';

/* The members pages with the sending feature's buttons (a feature never imports another: app/ composes). */

export function MembersWithSending() {
  return <MembersPage SendMessage={SendMessageButton} />;
}

export function MemberDetailWithSending() {
  return <MemberDetailPage MessageMember={MessageMemberButton} MessageActions={MessageRowActions} />;
}
