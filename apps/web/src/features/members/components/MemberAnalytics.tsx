import { useMemo, useState } from 'react';
import { BarChart, LineChart, PieChart } from '../../../components/charts/index.ts';
import {
  Card,
  Center,
  ColorSwatch,
  Group,
  Loader,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { BADGE_COLORS, MEMBER_DETAIL_DAYS } from '@flywheel/shared/constants';
import { MEMBER_DETAIL_DAY_OPTIONS, type ActionLogRow, type ChannelTotals } from '@flywheel/shared/members';
import { DataTable, type DataColumn } from '../../../components/DataTable.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { cutLabel, dayAxis, formatCount } from '../../../lib/chart-labels.ts';
import { useMemberActions } from '../api/member-actions.ts';
import { useMemberActivity } from '../api/member-activity.ts';
import { useMemberChannelActivity } from '../api/member-channel-activity.ts';
import { useMemberPie } from '../api/member-pie.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { SlackText } from '../../../components/SlackText.tsx';

const SERIES = [
  { name: 'messages', label: 'Messages', color: 'blue.6' },
  { name: 'replies', label: 'Replies', color: 'teal.6' },
  { name: 'reactions', label: 'Reactions', color: 'orange.6' },
];
const PIE_COLORS = [...BADGE_COLORS, 'cyan', 'pink', 'lime', 'indigo'].map((c) => `${c}.6`);
/** The pie shows this many channels; the rest are one 'Other channels' slice. */
const PIE_SLICES = 7;

type Slice = { name: string; value: number; color: string };

/** The pie's slices: the busiest channels, then the rest together, each with its colour. */
export function pieSlices(rows: readonly { channel_name: string; activity: number }[]): Slice[] {
  const sorted = [...rows].filter((r) => r.activity > 0).sort((a, b) => b.activity - a.activity);
  const top = sorted.slice(0, PIE_SLICES).map((r, i) => ({
    name: `#${r.channel_name}`,
    value: r.activity,
    color: PIE_COLORS[i % PIE_COLORS.length]!,
  }));
  const rest = sorted.slice(PIE_SLICES).reduce((n, r) => n + r.activity, 0);
  return rest > 0 ? [...top, { name: 'Other channels', value: rest, color: 'gray.5' }] : top;
}

/** The pie's legend: colour, channel and its share, in the pie's order. */
function PieLegend({ slices }: { slices: Slice[] }) {
  const total = slices.reduce((n, s) => n + s.value, 0) || 1;
  return (
    <Stack
      gap={6}
      component="ul"
      p={0}
      m={0}
      miw={200}
      style={{ listStyle: 'none', flex: 1 }}
      aria-label="Legend"
    >
      {slices.map((s) => (
        <Group key={s.name} component="li" gap={8} wrap="nowrap">
          <ColorSwatch color={`var(--mantine-color-${s.color.replace('.', '-')})`} size={10} radius={2} />
          <Text fz="sm" truncate="end" title={s.name} style={{ minWidth: 0, flex: 1 }}>
            {s.name}
          </Text>
          <Text fz="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {formatCount(s.value)} · {Math.round((s.value / total) * 100)}%
          </Text>
        </Group>
      ))}
    </Stack>
  );
}

const CHANNEL_COLUMNS: DataColumn<ChannelTotals>[] = [
  { id: 'channel', header: 'Channel name', value: (c) => c.channel_name, cell: (c) => `#${c.channel_name}` },
  { id: 'messages', header: 'Messages', value: (c) => c.messages, searchable: false },
  { id: 'replies', header: 'Replies', value: (c) => c.replies, searchable: false },
  { id: 'reactions', header: 'Reactions', value: (c) => c.reactions, searchable: false },
];

const RECENT_COLUMNS: DataColumn<ActionLogRow>[] = [
  { id: 'time', header: 'Time', cell: (r) => formatDateTime(r.at), nowrap: true },
  { id: 'channel', header: 'Channel', cell: (r) => `#${r.channel_name}` },
  {
    id: 'message',
    header: 'Message',
    cell: (r) => <SlackText text={r.content} lineClamp={2} />,
  },
];

function Panel({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card withBorder radius="md" padding="md">
      <Title order={3} fz="md" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

function State({ pending, error }: { pending: boolean; error: unknown }) {
  if (pending)
    return (
      <Center h={200}>
        <Loader size="sm" />
      </Center>
    );
  return <Text c="red">{errorMessage(error)}</Text>;
}

/** Analytics tab (loaded on demand: the charts library stays out of every other page). */
export default function MemberAnalytics({ memberId }: { memberId: string }) {
  const [days, setDays] = useState<number>(MEMBER_DETAIL_DAYS);
  const activity = useMemberActivity(memberId, days);
  const pie = useMemberPie(memberId, days);
  const perChannel = useMemberChannelActivity(memberId, days);
  const actions = useMemberActions(memberId);

  const line = useMemo(
    () => (activity.data ?? []).map((d) => ({ ...d, day: d.date_of_data.slice(0, 10) })),
    [activity.data],
  );
  const axis = useMemo(
    () =>
      dayAxis(
        line.map((d) => d.day),
        days,
      ),
    [line, days],
  );
  const recent = useMemo(
    () =>
      (actions.data ?? [])
        .filter((a) => a.activity_type !== 'reaction')
        .sort((a, b) => Number(b.ts) - Number(a.ts))
        .slice(0, 50),
    [actions.data],
  );

  return (
    <Stack>
      <Group justify="flex-end">
        <Select
          aria-label="Analytics time filter"
          data={MEMBER_DETAIL_DAY_OPTIONS.map((d) => ({ value: String(d), label: `Last ${d} days` }))}
          value={String(days)}
          allowDeselect={false}
          onChange={(v) => v && setDays(Number(v))}
          w={180}
        />
      </Group>
      <Panel title="Activity">
        {activity.data ? (
          <LineChart
            h={260}
            data={line}
            {...axis}
            series={SERIES}
            curveType="linear"
            valueFormatter={formatCount}
            yAxisProps={{ allowDecimals: false }}
            withLegend
            legendProps={{ verticalAlign: 'bottom' }}
            aria-label="Activity line chart"
          />
        ) : (
          <State pending={activity.isPending} error={activity.error} />
        )}
      </Panel>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Panel title="User Activity Per Channel">
          {pie.data ? (
            pie.data.length === 0 ? (
              <Center h={220}>
                <Text c="dimmed">No Data Found</Text>
              </Center>
            ) : (
              <Group wrap="wrap" align="center" justify="center" gap="lg">
                <PieChart
                  size={180}
                  withTooltip
                  tooltipDataSource="segment"
                  valueFormatter={formatCount}
                  withLabelsLine={false}
                  data={pieSlices(pie.data)}
                  style={{ flex: 'none' }}
                />
                <PieLegend slices={pieSlices(pie.data)} />
              </Group>
            )
          ) : (
            <State pending={pie.isPending} error={pie.error} />
          )}
        </Panel>
        <Panel title="Activity per channel">
          {perChannel.data ? (
            <BarChart
              h={240}
              data={perChannel.data.map((c) => ({ ...c, channel: `#${c.channel_name}` }))}
              dataKey="channel"
              series={SERIES}
              withLegend
              legendProps={{ verticalAlign: 'bottom' }}
              valueFormatter={formatCount}
              yAxisProps={{ allowDecimals: false }}
              xAxisProps={{ tickFormatter: cutLabel, interval: 0, tick: { fontSize: 11 } }}
            />
          ) : (
            <State pending={perChannel.isPending} error={perChannel.error} />
          )}
        </Panel>
      </SimpleGrid>
      <Panel title="Channels">
        <DataTable
          label="Channel activity"
          columns={CHANNEL_COLUMNS}
          rows={perChannel.data}
          rowId={(c) => c.channel_id}
          search={{ label: 'Search channels', width: 260 }}
          defaultSort={{ id: 'messages', desc: true }}
          loading={perChannel.isPending}
          error={perChannel.error ? errorMessage(perChannel.error) : null}
          emptyText="No Data Found"
        />
      </Panel>
      <Panel title="Recent Messages">
        <DataTable
          label="Recent Messages"
          columns={RECENT_COLUMNS}
          rows={recent}
          rowId={(r) => `${r.channel_id}-${r.ts}`}
          pageSize={10}
          loading={actions.isPending}
          error={actions.error ? errorMessage(actions.error) : null}
          emptyText="No messages in the last 7 days."
        />
      </Panel>
    </Stack>
  );
}
