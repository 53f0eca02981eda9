import { useState } from 'react';
import { Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { LazyModal } from '../../../components/LazyModal.tsx';
import {
  audienceSchema,
  DELIVERY_TEXTS,
  hasTarget,
  directMessageBody,
  dmManyBody,
  sendMessageBody,
  type Audience,
  type SendResponse,
} from '@flywheel/shared/delivery';
import { TargetPickers, type PickedTargets, type TargetPicker } from '../../../components/TargetPickers.tsx';
import { useDirectMessage } from '../api/direct-message.ts';
import { useDmToMultipleUsers } from '../api/dm-to-multiple-users.ts';
import { useSendMessage } from '../api/send-message.ts';
import {
  composeProblems,
  firstIssue,
  DM_CHOOSE_SENDER,
  type SenderChoice,
  useTestSend,
  budgetLine,
  useSendBudget,
} from '../../../entities/messages/index.ts';
import { adminRefusal } from '../admin-refusal.ts';
import { adminChannelsKey } from '../api/admin-channels.ts';
import { AdminChannelWarning } from './AdminChannelWarning.tsx';
import { useComposer } from '../use-composer.ts';
import { nameOfHit, useMemberNames } from '../../../entities/members/index.ts';
import { useSendFlow } from '../use-send-flow.ts';
import { useRecipientsConfirmation } from '../../../components/confirm-recipients.tsx';
import { MessageComposer } from './MessageComposer.tsx';

/**
 * Whom the message goes to:
 * - `member`: one member (member detail's message button; POST /member/directmessage);
 * - `members`: a DM to each of these members (Send-DM popup; POST /quickaction/dmtomultipleusers);
 * - `audience`: channels and DMs to members, tags, channels, the workspace or a Members `filter`
 *   (Members screen Send Message; POST /quickaction/sendmessage).
 */
export type SendTarget =
  | { kind: 'member'; memberId: string }
  | { kind: 'members'; memberIds: readonly string[] }
  | { kind: 'audience'; audience: Audience };

export type SendMessageModalProps = {
  opened: boolean;
  onClose(): void;
  target: SendTarget;
  /** Pickers shown in the popup (DM members, DM tags, post in channels); they start from the target's lists. */
  pickers?: readonly TargetPicker[];
  /** The sender chosen before (ChooseSenderModal); it can still be changed here. */
  initialSender?: SenderChoice;
  /** Whom it goes to, in words (e.g. 'To the 120 members filtered'); a default is shown otherwise. */
  summary?: string;
  title?: string;
  onSent?(res: SendResponse): void;
};

/** Send Message and Send-DM popups: sender, rich text with images, Send with progress. */
export function SendMessageModal(props: SendMessageModalProps) {
  return (
    <LazyModal opened={props.opened} onClose={props.onClose} title={props.title ?? 'Send Message'} size="xl">
      {props.opened ? <SendMessageForm {...props} /> : null}
    </LazyModal>
  );
}

/** Whether the audience names anyone (an audience the schema cannot read is left to its own message). */
const hasAudience = (body: unknown) => {
  const audience = audienceSchema.safeParse(body);
  return !audience.success || hasTarget(audience.data);
};

const listOf = (target: SendTarget, picker: TargetPicker): string[] => {
  if (target.kind === 'members') return picker === 'members' ? [...target.memberIds] : [];
  if (target.kind !== 'audience') return [];
  const { dms, channel_ids } = target.audience;
  if (picker === 'members') return [...(dms?.members ?? [])];
  if (picker === 'tags') return (dms?.tags ?? []).map(String);
  return [...(channel_ids ?? [])];
};

function SendMessageForm({
  target,
  pickers = [],
  initialSender,
  summary,
  onClose,
  onSent,
}: SendMessageModalProps) {
  const flow = useSendFlow();
  const sendMessage = useSendMessage();
  const dmMany = useDmToMultipleUsers();
  const direct = useDirectMessage();
  const { withConfirmation, confirmation } = useRecipientsConfirmation();
  const { sender, value, files, composerProps, report, clearOther } = useComposer(initialSender);
  const test = useTestSend();
  const qc = useQueryClient();
  // The server's refusal of a post as an admin outside a channel (shown with the offer to use the bot).
  const [refused, setRefused] = useState<string | null>(null);
  const onSender = (next: SenderChoice) => {
    setRefused(null);
    composerProps.onSender(next);
  };
  const [picked, setPicked] = useState(() => ({
    members: listOf(target, 'members'),
    tags: listOf(target, 'tags'),
    channels: listOf(target, 'channels'),
  }));
  const shows = (p: TargetPicker) => pickers.includes(p);

  const build = (images: string[]) => {
    const common = {
      team_id: flow.teamId,
      sender: sender.sender ?? undefined,
      admin_user: sender.sender === 'admin' ? sender.adminUser : null,
      htmlmessage: value.html,
      images,
    };
    if (target.kind === 'member')
      return { path: 'direct', body: { ...common, id: target.memberId, text: value.mrkdwn } } as const;
    if (target.kind === 'members') {
      const users = shows('members') ? picked.members : [...target.memberIds];
      return { path: 'many', body: { ...common, users, text: value.mrkdwn } } as const;
    }
    const a = target.audience;
    const body = {
      ...common,
      message: value.mrkdwn,
      channel_ids: shows('channels') ? picked.channels : [...(a.channel_ids ?? [])],
      dms: {
        members: shows('members') ? picked.members : [...(a.dms?.members ?? [])],
        tags: shows('tags') ? picked.tags.map(Number) : [...(a.dms?.tags ?? [])],
        channels: [...(a.dms?.channels ?? [])],
      },
      sendtoworkspace: a.sendtoworkspace ?? false,
      ...(a.filter ? { filter: a.filter } : {}),
    };
    return { path: 'audience', body } as const;
  };

  const check = () => {
    const dm = target.kind !== 'audience';
    const base = composeProblems(sender, value, {
      chooseSender: dm ? DM_CHOOSE_SENDER : DELIVERY_TEXTS.chooseSender,
      empty: DELIVERY_TEXTS.emptyMessage,
    });
    const draft = build([]);
    const parsed =
      draft.path === 'direct'
        ? directMessageBody.safeParse(draft.body)
        : draft.path === 'many'
          ? dmManyBody.safeParse(draft.body)
          : sendMessageBody.safeParse(draft.body);
    const noTarget: string | null =
      draft.path === 'many' && draft.body.users.length === 0
        ? DELIVERY_TEXTS.chooseMember
        : draft.path === 'audience' && !hasAudience(draft.body)
          ? DELIVERY_TEXTS.chooseTarget
          : null;
    const other = noTarget ?? (base.sender || base.message ? null : firstIssue(parsed));
    return report({ ...base, other });
  };

  /** The channels the message is posted in (DMs to channels' members are not posts). */
  const postChannels =
    target.kind !== 'audience'
      ? []
      : shows('channels')
        ? picked.channels
        : [...(target.audience.channel_ids ?? [])];

  /** 'Send a test to me': the sender and message checks only (it goes to you, not to the targets). */
  const sendTest = () => {
    if (flow.busy || test.busy) return;
    const base = composeProblems(sender, value, {
      chooseSender: target.kind === 'audience' ? DELIVERY_TEXTS.chooseSender : DM_CHOOSE_SENDER,
      empty: DELIVERY_TEXTS.emptyMessage,
    });
    if (!report({ ...base, other: null })) return;
    const other = test.send({ sender, message: value, files });
    if (other) report({ ...base, other });
  };

  const submit = () => {
    if (flow.busy || !check()) return;
    void flow
      .run(
        files,
        // A send to the whole workspace, a filter or many members is confirmed with its count first.
        (images) =>
          withConfirmation((confirm) => {
            const { path, body } = build(images);
            const counted = confirm === undefined ? {} : { confirm_recipients: confirm };
            if (path === 'direct') return direct.mutateAsync({ ...body, ...counted });
            if (path === 'many') return dmMany.mutateAsync({ ...body, ...counted });
            return sendMessage.mutateAsync({ ...body, ...counted }).catch((err: unknown) => {
              throw adminRefusal(err, (message) => {
                setRefused(message);
                void qc.invalidateQueries({ queryKey: adminChannelsKey(flow.teamId) });
              });
            });
          }),
        onClose,
      )
      .then((res) => {
        if (res) onSent?.(res);
      });
  };

  return (
    <>
      {confirmation}
      <MessageComposer
        {...composerProps}
        onSender={onSender}
        notice={
          <AdminChannelWarning
            sender={sender}
            channelIds={postChannels}
            refused={refused}
            onUseBot={() => onSender({ sender: 'bot', adminUser: null })}
            disabled={flow.busy}
          />
        }
        onTest={sendTest}
        testBusy={test.busy}
        testDisabled={!test.canTest(value)}
        targets={
          <TargetFields
            target={target}
            pickers={pickers}
            picked={picked}
            onPicked={(next) => {
              setPicked(next);
              clearOther();
            }}
            summary={summary}
            disabled={flow.busy}
          />
        }
        progress={flow.progress}
        busy={flow.busy}
        submitLabel="Send"
        onSubmit={submit}
        onCancel={onClose}
      />
    </>
  );
}

const NO_IDS: string[] = [];

function TargetFields(props: {
  target: SendTarget;
  pickers: readonly TargetPicker[];
  picked: PickedTargets;
  onPicked(next: PickedTargets): void;
  summary?: string;
  disabled: boolean;
}) {
  const { target, pickers, picked, onPicked } = props;
  const named = useMemberNames(target.kind === 'member' ? [target.memberId] : NO_IDS);
  const budget = budgetLine(useSendBudget().data);
  const nameOf = (id: string) => {
    const hit = named.byId.get(id);
    return hit ? nameOfHit(hit) : id;
  };
  const summary =
    props.summary ??
    (target.kind === 'member'
      ? `To ${nameOf(target.memberId)}`
      : target.kind === 'members' && !pickers.includes('members')
        ? `To ${target.memberIds.length} member${target.memberIds.length === 1 ? '' : 's'}`
        : target.kind === 'audience' && target.audience.filter
          ? 'To every member the Members filters show'
          : null);

  return (
    <Stack gap="xs">
      {summary ? (
        <Text fz="sm" c="dimmed">
          {summary}
        </Text>
      ) : null}
      {budget ? (
        <Text fz="xs" c="dimmed">
          {budget}
        </Text>
      ) : null}
      <TargetPickers pickers={pickers} value={picked} onChange={onPicked} disabled={props.disabled} />
    </Stack>
  );
}
