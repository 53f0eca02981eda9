import '@mantine/charts/styles.css';
import { useMemo, useState } from 'react';
import { BarChart, LineChart, PieChart } from '@mantine/charts';
import { Card, Center, Group, Loader, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { BADGE_COLORS, BAR_LABEL_MAX, MEMBER_DETAIL_DAYS } from '@flywheel/shared/constants';
import { MEMBER_DETAIL_DAY_OPTIONS, type ActionLogRow, type ChannelTotals } from '@flywheel/shared/members';
import { DataTable, type DataColumn } from '../../../components/DataTable.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useMemberActions } from '../api/member-actions.ts';
import { useMemberActivity } from '../api/member-activity.ts';
import { useMemberChannelActivity } from '../api/member-channel-activity.ts';
import { useMemberPie } from '../api/member-pie.ts';
import { actionTime } from './MemberActions.tsx';

const SERIES = [
  { name: 'messages', label: 'Messages', color: 'blue.6' },
  { name: 'replies', label: 'Replies', color: 'teal.6' },
  { name: 'reactions', label: 'Reactions', color: 'orange.6' },
];
const PIE_COLORS = [...BADGE_COLORS, 'cyan', 'pink', 'lime', 'indigo'].map((c) => `${c}.6`);
const cut = (s: string) => (s.length > BAR_LABEL_MAX ? `${s.slice(0, BAR_LABEL_MAX)}…` : s);
/** Spec section 9: 'day month' up to 90 days, otherwise 'month year'. */
const dayLabel = (day: string, days: number) =>
  new Date(`${day}T00:00:00`).toLocaleDateString(
    undefined,
    days <= 90 ? { day: 'numeric', month: 'short' } : { month: 'short', year: 'numeric' },
  );

const CHANNEL_COLUMNS: DataColumn<ChannelTotals>[] = [
  { id: 'channel', header: 'Channel name', value: (c) => c.channel_name, cell: (c) => `#${c.channel_name}` },
  { id: 'messages', header: 'Messages', value: (c) => c.messages, searchable: false },
  { id: 'replies', header: 'Replies', value: (c) => c.replies, searchable: false },
  { id: 'reactions', header: 'Reactions', value: (c) => c.reactions, searchable: false },
];

const RECENT_COLUMNS: DataColumn<ActionLogRow>[] = [
  { id: 'time', header: 'Time', cell: (r) => actionTime(r.at), nowrap: true },
  { id: 'channel', header: 'Channel', cell: (r) => `#${r.channel_name}` },
  {
    id: 'message',
    header: 'Message',
    cell: (r) => (
      <Text fz="sm" lineClamp={2}>
        {r.content}
      </Text>
    ),
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
    () => (activity.data ?? []).map((d) => ({ ...d, date: dayLabel(d.date_of_data, days) })),
    [activity.data, days],
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
            dataKey="date"
            series={SERIES}
            curveType="monotone"
            withLegend
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
              <Center>
                <PieChart
                  size={200}
                  withTooltip
                  withLabelsLine={false}
                  data={pie.data.map((p, i) => ({
                    name: `#${p.channel_name}`,
                    value: p.activity,
                    color: PIE_COLORS[i % PIE_COLORS.length]!,
                  }))}
                />
              </Center>
            )
          ) : (
            <State pending={pie.isPending} error={pie.error} />
          )}
        </Panel>
        <Panel title="Activity per channel">
          {perChannel.data ? (
            <BarChart
              h={220}
              data={perChannel.data.map((c) => ({ ...c, channel: cut(c.channel_name) }))}
              dataKey="channel"
              series={SERIES}
              withLegend
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
          loading={actions.isPending}
          error={actions.error ? errorMessage(actions.error) : null}
          emptyText="No messages in the last 7 days."
        />
      </Panel>
    </Stack>
  );
}
