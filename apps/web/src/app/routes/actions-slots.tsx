// The sending and members features' popups the Threads, Posts and Mentions tabs show (one chunk, loaded by
// actions-pages.tsx when a popup first opens).
import type { PeopleSlotProps, ReplySlotProps } from '../../features/conversations/slots.ts';
import { ReplyModal } from '../../features/delivery/components/ReplyModal.tsx';
import { SendMessageModal } from '../../features/delivery/components/SendMessageModal.tsx';
import { AddTagModal } from '../../features/members/components/AddTagModal.tsx';

export function Reply(p: ReplySlotProps) {
  return <ReplyModal {...p} onSent={() => p.onSent?.()} />;
}

export function SendDm(p: PeopleSlotProps) {
  return (
    <SendMessageModal
      opened={p.opened}
      onClose={p.onClose}
      title="Send DM"
      target={{ kind: 'members', memberIds: p.memberIds }}
      pickers={['members']}
      onSent={() => p.onDone?.()}
    />
  );
}

export function AddTag(p: PeopleSlotProps) {
  return <AddTagModal opened={p.opened} onClose={p.onClose} memberIds={p.memberIds} onAdded={p.onDone} />;
}
