import { useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { recipientsLabel } from '@flywheel/shared/delivery';
import { LazyModal } from './LazyModal.tsx';
import { ApiError } from '../lib/api-client.ts';
import { ConfirmationDeclined } from '../lib/confirmation-declined.ts';
import { budgetLine, useSendBudget } from '../entities/messages/index.ts';

type Asked = { members: number; channels: number; changed: boolean; answer(ok: boolean): void };

/** Whether the server asks for the recipients' count (a send to the whole workspace, a filter, many). */
const asksToConfirm = (err: unknown): err is ApiError =>
  err instanceof ApiError && err.code === 'CONFIRM_RECIPIENTS' && typeof err.details.recipients === 'number';

/**
 * The second step of a large send: the server answers a send to the whole workspace, a Members filter or many
 * recipients with 409 and their count; this shows "Send to N members?" and, confirmed, sends again with
 * `confirm_recipients: N` (asking again if the audience changed meanwhile). Going back throws
 * ConfirmationDeclined (the upload flow ends quietly; the dialog stays open).
 */
export function useRecipientsConfirmation() {
  const [asked, setAsked] = useState<Asked | null>(null);

  async function withConfirmation<T>(call: (confirm: number | undefined) => Promise<T>): Promise<T> {
    let confirm: number | undefined;
    for (let round = 0; ; round++) {
      try {
        return await call(confirm);
      } catch (err) {
        if (!asksToConfirm(err) || round >= 3) throw err;
        const ok = await new Promise<boolean>((answer) =>
          setAsked({
            members: err.details.members ?? err.details.recipients!,
            channels: err.details.channels ?? 0,
            changed: confirm !== undefined,
            answer,
          }),
        );
        setAsked(null);
        if (!ok) throw new ConfirmationDeclined();
        confirm = err.details.recipients;
      }
    }
  }

  const confirmation = <ConfirmRecipientsModal asked={asked} />;
  return { withConfirmation, confirmation };
}

function ConfirmRecipientsModal({ asked }: { asked: Asked | null }) {
  const label = asked ? recipientsLabel(asked) : '';
  return (
    <LazyModal
      opened={asked !== null}
      onClose={() => asked?.answer(false)}
      title={asked ? `Send to ${label}?` : ''}
      size="md"
      zIndex={400}
    >
      {asked ? <ConfirmBody asked={asked} label={label} /> : null}
    </LazyModal>
  );
}

function ConfirmBody({ asked, label }: { asked: Asked; label: string }) {
  const budget = budgetLine(useSendBudget().data);
  return (
    <Stack gap="md">
      {asked.changed ? (
        <Text fz="sm" c="orange.8">
          Whom it reaches changed since you looked: it is {label} now.
        </Text>
      ) : null}
      <Text fz="sm">
        This goes to {label}, one message each. A message cannot be taken back once it is sent.
      </Text>
      {budget ? (
        <Text fz="sm" c="dimmed">
          {budget}
        </Text>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={() => asked.answer(false)}>
          Back
        </Button>
        <Button color="red.9" onClick={() => asked.answer(true)}>
          Send to {label}
        </Button>
      </Group>
    </Stack>
  );
}
