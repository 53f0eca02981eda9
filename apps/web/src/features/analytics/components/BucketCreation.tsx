import { ENGAGEMENT_LEVELS, LEVEL_LABELS, type EngagementLevel } from '@flywheel/shared/levels';
import { useMemo, useState } from 'react';
import {
  Accordion,
  Button,
  Card,
  Checkbox,
  Group,
  MultiSelect,
  Radio,
  ScrollArea,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { Bucket } from '@flywheel/shared/buckets';
import { ComparisonRows } from '../../../components/ActivityFilterModal.tsx';
import { TimeFilterSelect } from '../../../components/TimeFilterSelect.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../../lib/notify.tsx';
import { useChannels } from '../../../entities/workspace/index.ts';
import { useCreateBucket } from '../api/create-bucket.ts';
import { useBuckets } from '../../../entities/buckets/index.ts';
import { bucketFormProblems, emptyBucketForm, formOf, toBucketData, type BucketForm } from '../buckets.ts';
import { BucketTable } from './BucketTable.tsx';
import { Segmented } from '../../../components/segmented/Segmented.tsx';
import { ActGate } from '../../../components/ActGate.tsx';

/**
 * Bucket creation mode: Members or Channels basis, a name, the accordion (Base Events,
 * Channels, Activity), Create, and the BucketTable whose radio loads a saved bucket's settings here.
 */
export function BucketCreation() {
  const buckets = useBuckets();
  const create = useCreateBucket();
  const [form, setForm] = useState<BucketForm>(emptyBucketForm);
  const [loaded, setLoaded] = useState<number | null>(null);
  const [tried, setTried] = useState(false);
  const problems = tried ? bucketFormProblems(form) : {};
  const set = (next: Partial<BucketForm>) => setForm((f) => ({ ...f, ...next }));

  const submit = () => {
    setTried(true);
    const found = bucketFormProblems(form);
    if (found.name || found.channels) return;
    create.mutate(
      { name: form.name.trim(), data: toBucketData(form) },
      {
        onSuccess: (res) => {
          notifySuccess(res.message);
          setForm(emptyBucketForm());
          setLoaded(null);
          setTried(false);
        },
        onError: (err) => notifyFailure(errorMessage(err)),
      },
    );
  };
  const load = (b: Bucket | null) => {
    setLoaded(b?.id ?? null);
    setForm(b ? formOf(b) : emptyBucketForm());
    setTried(false);
  };

  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="bucket-create-title">
        <Stack gap="md">
          <Group justify="space-between" wrap="wrap">
            <Text id="bucket-create-title" component="h2" fw={600} fz="lg">
              {loaded === null ? 'Create Bucket' : 'Bucket settings'}
            </Text>
            <Segmented
              aria-label="Bucket basis"
              data={[
                { value: 'members', label: 'Members' },
                { value: 'channels', label: 'Channels' },
              ]}
              value={form.basis}
              onChange={(v) => set({ basis: v as BucketForm['basis'] })}
            />
          </Group>
          <TextInput
            label="Bucket name"
            placeholder="Name..."
            value={form.name}
            onChange={(e) => set({ name: e.currentTarget.value })}
            error={problems.name}
            maxLength={80}
          />
          <Accordion variant="separated" multiple defaultValue={['base', 'channels', 'activity']}>
            <Accordion.Item value="base">
              <Accordion.Control>Base Events</Accordion.Control>
              <Accordion.Panel>
                <BaseEvents form={form} set={set} />
              </Accordion.Panel>
            </Accordion.Item>
            <Accordion.Item value="channels">
              <Accordion.Control>
                Channels{form.channels.length ? ` (${form.channels.length})` : ''}
              </Accordion.Control>
              <Accordion.Panel>
                <Channels form={form} set={set} error={problems.channels} />
              </Accordion.Panel>
            </Accordion.Item>
            <Accordion.Item value="activity">
              <Accordion.Control>Activity</Accordion.Control>
              <Accordion.Panel>
                <Activity form={form} set={set} />
              </Accordion.Panel>
            </Accordion.Item>
            <Accordion.Item value="levels">
              <Accordion.Control>
                Engagement levels{form.levels.length ? ` (${form.levels.length})` : ''}
              </Accordion.Control>
              <Accordion.Panel>
                <MultiSelect
                  label="Members who are"
                  description="Any of these levels when the bucket runs; none chosen: every level"
                  placeholder={form.levels.length ? undefined : 'Every level'}
                  data={ENGAGEMENT_LEVELS.map((l) => ({ value: l, label: LEVEL_LABELS[l] }))}
                  value={form.levels}
                  onChange={(v) => set({ levels: v as EngagementLevel[] })}
                  clearable
                />
              </Accordion.Panel>
            </Accordion.Item>
          </Accordion>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => load(null)}>
              Clear
            </Button>
            <ActGate>
              {(viewer) => (
                <Button onClick={submit} loading={create.isPending} disabled={viewer}>
                  Create
                </Button>
              )}
            </ActGate>
          </Group>
        </Stack>
      </Card>
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="bucket-table-title">
        <Stack gap="sm">
          <Text id="bucket-table-title" component="h2" fw={600} fz="lg">
            Buckets
          </Text>
          <BucketTable
            buckets={buckets.data}
            loading={buckets.isPending}
            error={buckets.error ? errorMessage(buckets.error) : null}
            loaded={loaded}
            onLoad={load}
          />
        </Stack>
      </Card>
    </Stack>
  );
}

type Section = { form: BucketForm; set(next: Partial<BucketForm>): void };

function BaseEvents({ form, set }: Section) {
  const base = form.base;
  return (
    <Stack gap="sm">
      <Radio.Group
        label="Members who"
        value={base?.event ?? 'none'}
        onChange={(v) =>
          set({
            base:
              v === 'none'
                ? null
                : {
                    event: v as 'workspace_join' | 'workspace_left',
                    window: base?.window ?? { type: 'static', days: 7 },
                  },
          })
        }
      >
        <Group mt="xs">
          <Radio value="none" label="Any" />
          <Radio value="workspace_join" label="Joined workspace" />
          <Radio value="workspace_left" label="Left workspace" />
        </Group>
      </Radio.Group>
      {base ? (
        <TimeFilterSelect
          label="Base event date filter"
          prefix="Within"
          value={base.window}
          onChange={(window) => set({ base: { ...base, window } })}
        />
      ) : null}
    </Stack>
  );
}

function Channels({ form, set, error }: Section & { error?: string }) {
  const channels = useChannels();
  const [q, setQ] = useState('');
  const shown = useMemo(
    () => (channels.data ?? []).filter((c) => c.channel_name.toLowerCase().includes(q.trim().toLowerCase())),
    [channels.data, q],
  );
  const chosen = new Set(form.channels);
  const allShown = shown.length > 0 && shown.every((c) => chosen.has(c.channel_id));
  const toggle = (ids: string[], on: boolean) => {
    const next = new Set(chosen);
    for (const id of ids) {
      if (on) next.add(id);
      else next.delete(id);
    }
    set({ channels: [...next] });
  };
  return (
    <Stack gap="sm">
      <Group gap="sm" wrap="wrap">
        <TextInput
          aria-label="Search channels"
          placeholder="Search channels"
          leftSection={<IconSearch size={14} />}
          value={q}
          onChange={(e) => setQ(e.currentTarget.value)}
          style={{ flex: 1, minWidth: 200 }}
        />
        <Segmented
          aria-label="Channels combine with"
          data={['AND', 'OR']}
          value={form.channelType}
          onChange={(v) => set({ channelType: v as 'AND' | 'OR' })}
        />
      </Group>
      <Checkbox
        label="Select all channels"
        checked={allShown}
        onChange={(e) =>
          toggle(
            shown.map((c) => c.channel_id),
            e.currentTarget.checked,
          )
        }
      />
      <ScrollArea.Autosize mah={200}>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing={6} verticalSpacing={6}>
          {shown.map((c) => (
            <Checkbox
              key={c.channel_id}
              label={`#${c.channel_name}`}
              checked={chosen.has(c.channel_id)}
              onChange={(e) => toggle([c.channel_id], e.currentTarget.checked)}
            />
          ))}
        </SimpleGrid>
        {shown.length === 0 ? <Text c="dimmed">No channels</Text> : null}
      </ScrollArea.Autosize>
      {error ? (
        <Text c="red" fz="sm" role="alert">
          {error}
        </Text>
      ) : null}
    </Stack>
  );
}

function Activity({ form, set }: Section) {
  const a = form.activity;
  return (
    <Stack gap="sm">
      <Group gap="sm" wrap="wrap">
        <Segmented
          aria-label="Activity combine with"
          data={['AND', 'OR']}
          value={a.type}
          onChange={(v) => set({ activity: { ...a, type: v as 'AND' | 'OR' } })}
        />
        <TimeFilterSelect
          label="Activity date filter"
          prefix="Within"
          value={form.activityWindow}
          onChange={(activityWindow) => set({ activityWindow })}
        />
      </Group>
      <ComparisonRows value={a} onChange={(activity) => set({ activity })} align="center" maw={520} />
      <Text fz="xs" c="dimmed">
        Rows without an operator are not applied.
      </Text>
    </Stack>
  );
}
