import { useEffect, useState } from 'react';
import {
  Avatar,
  Button,
  Card,
  Center,
  Group,
  Loader,
  Radio,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconRobot } from '@tabler/icons-react';
import { botNameError, type BotDetails } from '@flywheel/shared/analytics';
import { BOT_NAME_DEBOUNCE_MS } from '@flywheel/shared/constants';
import { firstGrapheme } from '@flywheel/shared/text';
import { notifyFailure } from '../../../lib/notify.tsx';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { useBotDetails } from '../api/bot-details.ts';
import { useUploadBot } from '../api/upload-bot.ts';
import { HOME_FAILURE } from './HomeCharts.tsx';
import { useIsOwner } from '../../../lib/role.ts';

export const BOT_UPLOAD_FAILED = 'Failed to upload bot details!';

const FLYWHEEL = 'flywheel';
const WORKSPACE = 'workspace';

/**
 * 'Customise Bot': the name is checked 200 ms after typing stops and on blur; Submit
 * stays disabled while the name is empty or breaks a rule; Reset and a failed upload go back to the saved values.
 */
export function BotCard() {
  const q = useBotDetails();
  useErrorToast(q, HOME_FAILURE);
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label="Customise Bot">
      <Group gap="sm" mb="md">
        <IconRobot size={20} color="var(--mantine-color-indigo-6)" />
        <Title order={2} fz="md" fw={600}>
          Customise Bot
        </Title>
      </Group>
      {q.data ? (
        <BotForm key={`${q.data.bot_name}|${q.data.use_custom}`} saved={q.data} />
      ) : q.error ? (
        <BotForm saved={{ bot_name: '', bot_image: null, use_custom: true }} />
      ) : (
        <Center h={180} role="status" aria-label="Loading Customise Bot">
          <Loader size="sm" type="dots" />
        </Center>
      )}
    </Card>
  );
}

function BotForm({ saved }: { saved: BotDetails }) {
  const upload = useUploadBot();
  // The bot's name and image are the workspace's settings: Owners change them.
  const owner = useIsOwner();
  const [name, setName] = useState(saved.bot_name);
  const [useCustom, setUseCustom] = useState(saved.use_custom);
  const [shown, setShown] = useState<string | null>(null);
  const [debounced] = useDebouncedValue(name, BOT_NAME_DEBOUNCE_MS);

  // The message appears 200 ms after typing stops (and at once on blur).
  useEffect(() => {
    setShown(debounced === '' ? null : botNameError(debounced));
  }, [debounced]);

  const invalid = name === '' || botNameError(name) !== null;
  const reset = () => {
    setName(saved.bot_name);
    setUseCustom(saved.use_custom);
    setShown(null);
  };
  const submit = () => {
    if (invalid) return;
    upload.mutate(
      { botName: name, use_custom: useCustom },
      {
        // The success toast is shown by the mutation itself: saving re-keys this form.
        onError: () => {
          notifyFailure(BOT_UPLOAD_FAILED);
          reset();
        },
      },
    );
  };

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <Stack gap="md">
        <Group gap="md" wrap="nowrap" align="flex-start">
          <Avatar
            src={useCustom === saved.use_custom ? saved.bot_image : null}
            radius="md"
            size={52}
            color="indigo"
            alt="Bot image"
          >
            {firstGrapheme(name || 'F').toUpperCase()}
          </Avatar>
          <TextInput
            label="Bot name"
            placeholder="flywheel-bot"
            style={{ flex: 1 }}
            value={name}
            error={shown}
            onChange={(e) => {
              const next = e.currentTarget.value;
              setName(next);
              // A message goes away as soon as the name is fixed (it only waits to appear), so the
              // form does not shift under a click on Submit.
              if (next === '' || botNameError(next) === null) setShown(null);
            }}
            onBlur={() => setShown(name === '' ? null : botNameError(name))}
          />
        </Group>
        <Radio.Group
          label="Bot image"
          value={useCustom ? FLYWHEEL : WORKSPACE}
          onChange={(v) => setUseCustom(v === FLYWHEEL)}
        >
          <Group mt={6}>
            <Radio value={FLYWHEEL} label="Use Flywheel Image" />
            <Radio value={WORKSPACE} label="Use Workspace Image" />
          </Group>
        </Radio.Group>
        <Text fz="xs" c="dimmed">
          Every message Flywheel sends to your workspace uses this name and image.
        </Text>
        {owner ? null : (
          <Text fz="xs" c="dimmed">
            Only an Owner of this workspace can change the bot's name and image.
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={reset} disabled={upload.isPending || !owner}>
            Reset
          </Button>
          <Button type="submit" disabled={invalid || !owner} loading={upload.isPending}>
            Submit
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
