import { useState } from 'react';
import { ActionIcon } from '@mantine/core';
import { IconMessage } from '@tabler/icons-react';
import { SendMessageModal } from './SendMessageModal.tsx';

/** Member detail's message button (name row): a DM to this member (POST /member/directmessage). */
export function MessageMemberButton({ memberId, name }: { memberId: string; name: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <ActionIcon variant="light" size="sm" onClick={() => setOpen(true)} aria-label={`Message ${name}`}>
        <IconMessage size={14} />
      </ActionIcon>
      <SendMessageModal
        opened={open}
        onClose={() => setOpen(false)}
        target={{ kind: 'member', memberId }}
        summary={`To ${name}`}
      />
    </>
  );
}
