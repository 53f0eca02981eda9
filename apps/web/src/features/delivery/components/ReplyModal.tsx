import { Text } from '@mantine/core';
import { LazyModal } from '../../../components/LazyModal.tsx';
import { DELIVERY_TEXTS, replyBody, type SendResponse } from '@flywheel/shared/delivery';
import { useReplyToMention, useReplyToThread } from '../api/reply-to-thread.ts';
import { composeProblems, firstIssue } from '../compose-checks.ts';
import type { SenderChoice } from '../../../lib/sender.ts';
import { useComposer } from '../use-composer.ts';
import { useSendFlow } from '../use-send-flow.ts';
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
      .run(files, (images) => reply.mutateAsync(body(images)), onClose)
      .then((res) => {
        if (res) onSent?.(res);
      });
  };

  return (
    <MessageComposer
      {...composerProps}
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
