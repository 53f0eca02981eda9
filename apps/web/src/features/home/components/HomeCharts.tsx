import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { BarChart, DonutChart, LineChart } from '../../../components/charts/index.ts';
import { Anchor, Box, Group, Progress, Stack, Text } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import type { ChannelActivity } from '@flywheel/shared/analytics';
import { ChartCard, queryState } from '../../../components/ChartCard.tsx';
import { TimeFilterSelect } from '../../../components/TimeFilterSelect.tsx';
import { cutLabel, dailyTotals, dayAxis, formatCount } from '../../../lib/chart-labels.ts';
import { DEFAULT_TIME, spanDays, type TimeChoice } from '../../../lib/time-filter.ts';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { useChannelData } from '../api/get-channel-data.ts';
import { useContentShare } from '../api/get-user-admin-data.ts';
import { useHighlights } from '../api/workspace-highlights.ts';

/** A failed Home load says 'Failed to get data!'. */
export const HOME_FAILURE = 'Failed to get data!';
const failed = () => HOME_FAILURE;

export const ACTIVITY_SERIES = [
  { name: 'messages', label: 'Messages', color: 'indigo.6' },
  { name: 'replies', label: 'Replies', color: 'teal.6' },
  { name: 'reactions', label: 'Reactions', color: 'orange.5' },
];

const emptyRows = (rows: { messages: number; replies: number; reactions: number }[]) =>
  rows.length === 0 || rows.every((r) => r.messages + r.replies + r.reactions === 0);

function Filter({
  label,
  time,
  onChange,
}: {
  label: string;
  time: TimeChoice;
  onChange(t: TimeChoice): void;
}) {
  return <TimeFilterSelect label={`${label} time filter`} value={time} onChange={onChange} />;
}

/** 'Workspace Highlights': Reactions, Messages and Replies per day. */
export function HighlightsCard() {
  const [time, setTime] = useState<TimeChoice>(DEFAULT_TIME);
  const q = useHighlights(time);
  useErrorToast(q, HOME_FAILURE);
  const points = useMemo(() => dailyTotals(q.data ?? [], spanDays(time)), [q.data, time]);
  return (
    <ChartCard
      title="Workspace Highlights"
      subtitle="Messages, replies and reactions per day"
      actions={<Filter label="Workspace Highlights" time={time} onChange={setTime} />}
      state={queryState(q, emptyRows, failed)}
      minHeight={280}
    >
      <Box data-testid="highlights-chart">
        <LineChart
          h={280}
          data={points}
          {...dayAxis(
            points.map((p) => p.day),
            spanDays(time),
          )}
          series={ACTIVITY_SERIES}
          curveType="linear"
          valueFormatter={formatCount}
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
          gridAxis="y"
          withDots={points.length <= 31}
        />
      </Box>
    </ChartCard>
  );
}

/** 'Reactions & Messages': the two series over the same days. */
export function ReactionsMessagesCard() {
  const [time, setTime] = useState<TimeChoice>(DEFAULT_TIME);
  const q = useHighlights(time);
  useErrorToast(q, HOME_FAILURE);
  const points = useMemo(() => dailyTotals(q.data ?? [], spanDays(time)), [q.data, time]);
  return (
    <ChartCard
      title="Reactions & Messages"
      subtitle="How people respond to what is posted"
      actions={<Filter label="Reactions & Messages" time={time} onChange={setTime} />}
      state={queryState(q, (rows) => rows.every((r) => r.messages + r.reactions === 0), failed)}
      minHeight={240}
    >
      <Box data-testid="reactions-messages-chart">
        <LineChart
          h={240}
          data={points}
          {...dayAxis(
            points.map((p) => p.day),
            spanDays(time),
          )}
          series={[ACTIVITY_SERIES[0]!, ACTIVITY_SERIES[2]!]}
          curveType="linear"
          valueFormatter={formatCount}
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
          gridAxis="y"
          withDots={false}
        />
      </Box>
    </ChartCard>
  );
}

const byActivity = (rows: readonly ChannelActivity[]) => [...rows].sort((a, b) => b.activity - a.activity);

/** 'Activity': messages, replies and reactions per channel (labels cut to 12 characters). */
export function ChannelActivityCard() {
  const [time, setTime] = useState<TimeChoice>(DEFAULT_TIME);
  const q = useChannelData(time);
  useErrorToast(q, HOME_FAILURE);
  const bars = useMemo(
    () =>
      byActivity(q.data ?? [])
        .slice(0, 12)
        .map((c) => ({ ...c, channel: `#${c.channel_name}` })),
    [q.data],
  );
  return (
    <ChartCard
      title="Activity"
      subtitle="Per channel"
      actions={<Filter label="Activity" time={time} onChange={setTime} />}
      state={queryState(q, (rows) => rows.every((r) => r.activity === 0), failed)}
      minHeight={280}
    >
      <Box data-testid="channel-activity-chart">
        <BarChart
          h={280}
          data={bars}
          dataKey="channel"
          series={ACTIVITY_SERIES}
          type="stacked"
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
          gridAxis="y"
          barProps={{ radius: 2 }}
          maxBarWidth={36}
          xAxisProps={{
            interval: 0,
            angle: -30,
            textAnchor: 'end',
            height: 64,
            tick: { fontSize: 11 },
            tickFormatter: cutLabel,
          }}
          valueFormatter={formatCount}
        />
      </Box>
    </ChartCard>
  );
}

/** 'Top Channels': the five busiest channels, with 'More Channels' to the Analytics channel table. */
export function TopChannelsCard() {
  const [time, setTime] = useState<TimeChoice>(DEFAULT_TIME);
  const q = useChannelData(time);
  useErrorToast(q, HOME_FAILURE);
  const top = byActivity(q.data ?? []).slice(0, 5);
  const max = Math.max(1, ...top.map((c) => c.activity));
  return (
    <ChartCard
      title="Top Channels"
      subtitle="By messages, replies and reactions"
      actions={<Filter label="Top Channels" time={time} onChange={setTime} />}
      state={queryState(q, (rows) => rows.every((r) => r.activity === 0), failed)}
      minHeight={240}
    >
      <Stack gap="sm" data-testid="top-channels">
        {top.map((c) => (
          <div key={c.channel_id}>
            <Group justify="space-between" mb={4} wrap="nowrap">
              <Text fz="sm" fw={500} title={`#${c.channel_name}`}>
                {cutLabel(`#${c.channel_name}`)}
              </Text>
              <Text fz="sm" c="dimmed">
                {formatCount(c.activity)}
              </Text>
            </Group>
            <Progress value={(c.activity / max) * 100} color="indigo" size="sm" radius="xl" aria-hidden />
          </div>
        ))}
        <Anchor component={Link} to="/dashboard/analytics#channel" fz="sm" fw={500}>
          <Group gap={4} component="span">
            More Channels <IconArrowRight size={14} />
          </Group>
        </Anchor>
      </Stack>
    </ChartCard>
  );
}

/** 'Content Generation': admins' vs members' share of messages and replies. */
export function ContentGenerationCard() {
  const [time, setTime] = useState<TimeChoice>(DEFAULT_TIME);
  const q = useContentShare(time);
  useErrorToast(q, HOME_FAILURE);
  const share = q.data ?? { admins: 0, members: 0 };
  const total = share.admins + share.members;
  const pct = (n: number) => (total ? Math.round((n / total) * 1000) / 10 : 0);
  return (
    <ChartCard
      title="Content Generation"
      subtitle="Messages and replies: admins vs members"
      actions={<Filter label="Content Generation" time={time} onChange={setTime} />}
      state={queryState(q, (d) => d.admins + d.members === 0, failed)}
      minHeight={240}
    >
      <Stack align="center" gap="sm" data-testid="content-generation">
        <DonutChart
          size={180}
          thickness={26}
          withTooltip
          tooltipDataSource="segment"
          chartLabel={`${pct(share.members)}% members`}
          data={[
            { name: 'Admin %', value: pct(share.admins), color: 'grape.6' },
            { name: 'Members %', value: pct(share.members), color: 'indigo.6' },
          ]}
        />
        <Group gap="lg">
          <Legend color="var(--mantine-color-grape-6)" label={`Admin ${pct(share.admins)}%`} />
          <Legend color="var(--mantine-color-indigo-6)" label={`Members ${pct(share.members)}%`} />
        </Group>
      </Stack>
    </ChartCard>
  );
}

function Legend({ color, label }: { color: string; label: string }) {
  return (
    <Group gap={6}>
      <Box w={10} h={10} style={{ borderRadius: 3, background: color }} />
      <Text fz="sm">{label}</Text>
    </Group>
  );
}
