// The sending feature's parts the members pages show (loaded as one chunk by members-pages.tsx).
export { MessageMemberButton } from '../../features/delivery/components/MessageMemberButton.tsx';
export { MessageRowActions } from '../../features/delivery/components/MessageRowActions.tsx';
export { SendMessageButton } from '../../features/delivery/components/SendMessageButton.tsx';
export { MemberDmReplies } from '../../features/delivery/components/MemberDmReplies.tsx';
