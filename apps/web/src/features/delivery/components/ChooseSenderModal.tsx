import { useState } from 'react';
import { Button, Group, Stack } from '@mantine/core';
import { LazyModal } from '../../../components/LazyModal.tsx';
import { DELIVERY_TEXTS } from '@flywheel/shared/delivery';
import {
  isChosen,
  NO_SENDER,
  type ChosenSender,
  type SenderChoice,
} from '../../../entities/messages/index.ts';
import { SenderPicker } from '../../../components/SenderPicker.tsx';

type ChooseSenderModalProps = {
  opened: boolean;
  onClose(): void;
  /** The chosen sender; the caller then opens SendMessageModal with it as `initialSender`. */
  onChoose(choice: ChosenSender): void;
  initial?: SenderChoice;
};

/** Members screen 'Choose Sender' popup: Bot or Admin, then Next ('Choose a Sender' when none). */
export function ChooseSenderModal({ opened, onClose, onChoose, initial }: ChooseSenderModalProps) {
  return (
    <LazyModal opened={opened} onClose={onClose} title="Choose Sender">
      {opened ? (
        <ChooseSenderForm initial={initial ?? NO_SENDER} onChoose={onChoose} onClose={onClose} />
      ) : null}
    </LazyModal>
  );
}

function ChooseSenderForm(props: {
  initial: SenderChoice;
  onChoose(c: ChosenSender): void;
  onClose(): void;
}) {
  const [choice, setChoice] = useState(props.initial);
  const [error, setError] = useState<string | null>(null);
  const next = () => {
    if (!isChosen(choice)) return setError(DELIVERY_TEXTS.chooseSender);
    props.onChoose(choice);
  };
  return (
    <Stack>
      <SenderPicker
        value={choice}
        onChange={(c) => {
          setChoice(c);
          setError(null);
        }}
        error={error}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={props.onClose}>
          Cancel
        </Button>
        <Button onClick={next}>Next</Button>
      </Group>
    </Stack>
  );
}
