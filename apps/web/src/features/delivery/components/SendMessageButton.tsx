import { useState } from 'react';
import { Button } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import type { Audience } from '@flywheel/shared/delivery';
import type { ChosenSender } from '../../../entities/messages/index.ts';
import { ChooseSenderModal } from './ChooseSenderModal.tsx';
import { SendMessageModal } from './SendMessageModal.tsx';
import { ActGate } from '../../../components/ActGate.tsx';

export type SendMessageButtonProps = {
  /** Whom it goes to when the popups open (the checked rows, or the filters). */
  audience: Audience;
  /** Whom, in words ('To 3 selected members'). */
  summary: string;
  onSent?(): void;
  /** The button's text (default 'Send Message'; 'Send DM' for selected members). */
  label?: string;
  disabled?: boolean;
};

/** Members screen 'Send Message': the Choose Sender popup, then the Send Message popup. */
export function SendMessageButton({
  audience,
  summary,
  onSent,
  label = 'Send Message',
  disabled,
}: SendMessageButtonProps) {
  const [step, setStep] = useState<'sender' | 'send' | null>(null);
  const [sender, setSender] = useState<ChosenSender | null>(null);
  return (
    <>
      <ActGate>
        {(viewer) => (
          <Button
            leftSection={<IconSend size={16} />}
            onClick={() => setStep('sender')}
            disabled={disabled || viewer}
          >
            {label}
          </Button>
        )}
      </ActGate>
      <ChooseSenderModal
        opened={step === 'sender'}
        initial={sender ?? undefined}
        onClose={() => setStep(null)}
        onChoose={(choice) => {
          setSender(choice);
          setStep('send');
        }}
      />
      <SendMessageModal
        opened={step === 'send'}
        onClose={() => setStep(null)}
        target={{ kind: 'audience', audience }}
        // Checked rows can be changed, and tags and channels added; everything filtered stays as filtered.
        pickers={audience.filter ? ['tags', 'channels'] : ['members', 'tags', 'channels']}
        initialSender={sender ?? undefined}
        summary={summary}
        onSent={() => onSent?.()}
      />
    </>
  );
}
