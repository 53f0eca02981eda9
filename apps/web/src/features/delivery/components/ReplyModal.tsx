import { useState } from 'react';
import { Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { LazyModal } from '../../../components/LazyModal.tsx';
import { DELIVERY_TEXTS, replyBody, type SendResponse } from '@flywheel/shared/delivery';
import { useReplyToMention, useReplyToThread } from '../api/reply-to-thread.ts';
import { composeProblems, firstIssue, type SenderChoice } from '../../../entities/messages/index.ts';
import { adminRefusal } from '../admin-refusal.ts';
import { adminChannelsKey } from '../api/admin-channels.ts';
import { useComposer } from '../use-composer.ts';
import { useSendFlow } from '../use-send-flow.ts';
import { AdminChannelWarning } from './AdminChannelWarning.tsx';
import { MessageComposer } from './MessageComposer.tsx';

export type ReplyModalProps = {
  opened: boolean;
  onClose(): void;
  /** The message replied to: its channel and ts. */
  channelId: string;
  ts: string;
  /** Shown as "Reply in #name". */
  channelName?: string;
  /** Set when replying from the Mentions panel. */
  mentionId?: string | null;
  initialSender?: SenderChoice;
  onSent?(res: SendResponse): void;
};

/** The reply dialog (member detail Actions tab, Posts, Mentions): a reply in the message's thread. */
export function ReplyModal(props: ReplyModalProps) {
  return (
    <LazyModal opened={props.opened} onClose={props.onClose} title="Reply" size="xl">
      {props.opened ? <ReplyForm {...props} /> : null}
    </LazyModal>
  );
}

function ReplyForm({
  channelId,
  ts,
  channelName,
  mentionId,
  initialSender,
  onClose,
  onSent,
}: ReplyModalProps) {
  const flow = useSendFlow();
  const toThread = useReplyToThread();
  const toMention = useReplyToMention();
  const reply = mentionId ? toMention : toThread;
  const { sender, value, files, composerProps, report } = useComposer(initialSender);
  const qc = useQueryClient();
  // The server's refusal of a reply as an admin outside the channel (shown with the offer to use the bot).
  const [refused, setRefused] = useState<string | null>(null);
  const onSender = (next: SenderChoice) => {
    setRefused(null);
    composerProps.onSender(next);
  };

  const body = (images: string[]) => ({
    team_id: flow.teamId,
    sender: sender.sender ?? undefined,
    admin_user: sender.sender === 'admin' ? sender.adminUser : null,
    text: value.mrkdwn,
    ts,
    channel_id: channelId,
    images,
    ...(mentionId ? { mention_id: mentionId } : {}),
  });

  const submit = () => {
    if (flow.busy) return;
    const found = composeProblems(sender, value, {
      chooseSender: DELIVERY_TEXTS.chooseSender,
      empty: DELIVERY_TEXTS.emptyReply,
    });
    const other = found.sender || found.message ? null : firstIssue(replyBody.safeParse(body([])));
    if (!report({ ...found, other })) return;
    void flow
      .run(
        files,
        (images) =>
          reply.mutateAsync(body(images)).catch((err: unknown) => {
            throw adminRefusal(err, (message) => {
              setRefused(message);
              void qc.invalidateQueries({ queryKey: adminChannelsKey(flow.teamId) });
            });
          }),
        onClose,
      )
      .then((res) => {
        if (res) onSent?.(res);
      });
  };

  return (
    <MessageComposer
      {...composerProps}
      onSender={onSender}
      notice={
        <AdminChannelWarning
          sender={sender}
          channelIds={[channelId]}
          refused={refused}
          onUseBot={() => onSender({ sender: 'bot', adminUser: null })}
          disabled={flow.busy}
        />
      }
      targets={
        channelName ? (
          <Text fz="sm" c="dimmed">
            Reply in the thread in #{channelName}
          </Text>
        ) : null
      }
      progress={flow.progress}
      busy={flow.busy}
      submitLabel="Reply"
      onSubmit={submit}
      onCancel={onClose}
    />
  );
}
