import { useMemo, useState } from 'react';
import { BarChart, PieChart } from '../../components/charts/index.ts';
import { chartColor } from '../../components/charts/scale.ts';
import {
  Box,
  Button,
  Center,
  ColorSwatch,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { LazyModal } from '../../components/LazyModal.tsx';
import { IconDownload, IconForms, IconLock, IconLockOpen, IconSend } from '@tabler/icons-react';
import { BADGE_COLORS } from '@flywheel/shared/constants';
import {
  POLL_ANONYMOUS_CSV_COLUMNS,
  POLL_CSV_COLUMNS,
  POLL_EXPORT_FILE,
  POLL_TEXTS,
  POLL_OPTIONS_PAGE,
  POLL_VOTERS_PAGE,
  type PollOption,
  type Voter,
} from '@flywheel/shared/polls';
import { DataTable, type DataColumn } from '../../components/DataTable.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { toCsv } from '@flywheel/shared/csv';
import { downloadCsv } from '../../lib/csv.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.tsx';
import { useCurrentTeam } from '../../entities/workspace/index.ts';
import { useMentionNames } from '../../entities/members/index.ts';
import { MessagePreview } from '../../components/MessagePreview.tsx';
import { SendFormModal } from '../../components/SendFormModal.tsx';
import type { PollSlots } from './slots.ts';
import { exportPollRows, usePollInfo, usePollOpenClose, useVoters } from './api.ts';
import { formatPollTime, PollStatusBadge } from './poll-status.tsx';
import { ActGate } from '../../components/ActGate.tsx';

const COLORS = [...BADGE_COLORS, 'cyan', 'pink', 'lime', 'indigo'].map((c) => `${c}.6`);
/** An option's colour, in the pie and beside its row of the options table. */
const optionColor = (index: number) => COLORS[index % COLORS.length]!;

type OptionRow = PollOption & { index: number };

const OPTION_COLUMNS: DataColumn<OptionRow>[] = [
  {
    id: 'emoji',
    header: 'Emoji',
    value: (o) => o.emoji,
    cell: (o) => <Text fz="lg">{o.emoji}</Text>,
    width: 70,
    searchable: false,
  },
  {
    id: 'option',
    header: 'Option',
    value: (o) => o.value,
    // The option's colour in the pie beside the table: the table is the pie's key.
    cell: (o) => (
      <Group gap="xs" wrap="nowrap">
        <ColorSwatch
          size={12}
          color={chartColor(optionColor(o.index))}
          aria-hidden
          data-testid={`option-swatch-${o.index}`}
          data-color={chartColor(optionColor(o.index))}
          style={{ flex: 'none' }}
        />
        <Text fz="sm">{o.value}</Text>
      </Group>
    ),
  },
  { id: 'count', header: 'Count', value: (o) => o.count, align: 'right', sortable: true, width: 90 },
];

const VOTER_COLUMNS: DataColumn<Voter>[] = [
  {
    id: 'voted_for',
    header: 'Voted For',
    value: (v) => v.value,
    cell: (v) => (
      <Text fz="sm">
        {v.emoji} {v.value}
      </Text>
    ),
    sortable: true,
  },
  { id: 'email', header: 'Email', value: (v) => v.email || '—' },
  { id: 'name', header: 'Name', value: (v) => v.name, sortable: true },
];

/** A button poll's settings in a few words (under the question). */
function ballotSummary(p: {
  anonymous: boolean;
  multiple: boolean;
  max_choices: number | null;
  allow_add: boolean;
  results: 'live' | 'closed';
}): string {
  return [
    'Buttons',
    p.anonymous ? 'anonymous' : 'named',
    p.multiple ? (p.max_choices ? `up to ${p.max_choices} choices` : 'multiple choice') : 'single choice',
    p.allow_add ? 'voters may add options' : '',
    p.results === 'closed' ? 'results hidden in Slack until close' : 'results shown live',
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * Poll Details: the question, 'Export Details' (PollDetails.csv), a pie chart of the votes (a bar chart for a
 * button poll; Close / Reopen for a posted poll; an anonymous poll shows counts only, no voters),
 * the options table (Emoji, Option, Count; 5 per page), the voters table (Voted For, Email, Name; 15 per page,
 * row checkboxes) and Send DM / Send Form for the selected voters. Open polls refresh as votes come in.
 */
export function PollDetailsModal({
  pollId,
  onClose,
  timeZone,
  SendDm,
}: PollSlots & {
  pollId: number;
  onClose(): void;
  timeZone: string;
}) {
  const { teamId } = useCurrentTeam();
  const info = usePollInfo(pollId);
  const voters = useVoters(pollId, info.data?.state !== 'expired');
  const openClose = usePollOpenClose();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [exporting, setExporting] = useState(false);
  const [acting, setActing] = useState<'dm' | 'form' | null>(null);
  const names = useMentionNames();
  const poll = info.data;
  const options = useMemo<OptionRow[]>(
    () => (poll?.poll_options ?? []).map((o, index) => ({ ...o, index })),
    [poll?.poll_options],
  );
  const pie = options
    .filter((o) => o.count > 0)
    .map((o) => ({ name: `${o.emoji} ${o.value}`, value: o.count, color: optionColor(o.index) }));

  const exportCsv = async () => {
    setExporting(true);
    try {
      const rows = await exportPollRows(teamId, pollId);
      downloadCsv(
        POLL_EXPORT_FILE,
        poll?.anonymous
          ? toCsv(
              POLL_ANONYMOUS_CSV_COLUMNS,
              rows.map((r) => [r.value, r.votes ?? 0]),
            )
          : toCsv(
              POLL_CSV_COLUMNS,
              rows.map((r) => [r.email, r.value, r.name]),
            ),
      );
    } catch (err) {
      notifyFailure(errorMessage(err));
    } finally {
      setExporting(false);
    }
  };

  const setOpen = async (action: 'close' | 'reopen') => {
    try {
      const res = await openClose.mutateAsync({ pollId, action });
      notifySuccess(res.message);
    } catch (err) {
      notifyFailure(errorMessage(err));
    }
  };
  const buttons = poll?.voting === 'buttons';

  return (
    <LazyModal opened onClose={onClose} title="Poll Details" size="xl">
      {!poll ? (
        <Center mih={200}>
          {info.error ? (
            <Text c="red">{errorMessage(info.error)}</Text>
          ) : (
            <Loader role="status" aria-label="Loading poll" />
          )}
        </Center>
      ) : (
        <Stack gap="md">
          <Group justify="space-between" align="flex-start" wrap="nowrap">
            <Stack gap={4}>
              <Box fz="md" fw={500}>
                <MessagePreview html={poll.htmlquestion} text={poll.question} names={names} />
              </Box>
              <Group gap="xs">
                <PollStatusBadge state={poll.state} />
                <Text fz="xs" c="dimmed">
                  {poll.channels.map((c) => `#${c}`).join(', ')} · ends{' '}
                  {formatPollTime(poll.expiry_ts, timeZone)}
                </Text>
              </Group>
              {buttons ? (
                <Text fz="xs" c="dimmed">
                  {ballotSummary(poll)}
                </Text>
              ) : null}
            </Stack>
            <Group gap="xs" wrap="nowrap">
              {poll.receipt_id !== null ? (
                <ActGate>
                  {(disabled) =>
                    poll.closed ? (
                      <Button
                        variant="default"
                        leftSection={<IconLockOpen size={16} />}
                        disabled={disabled}
                        loading={openClose.isPending}
                        onClick={() => setOpen('reopen')}
                      >
                        Reopen poll
                      </Button>
                    ) : poll.state === 'active' ? (
                      <Button
                        variant="default"
                        leftSection={<IconLock size={16} />}
                        disabled={disabled}
                        loading={openClose.isPending}
                        onClick={() => setOpen('close')}
                      >
                        Close poll
                      </Button>
                    ) : (
                      <></>
                    )
                  }
                </ActGate>
              ) : null}
              <Button
                variant="default"
                leftSection={<IconDownload size={16} />}
                onClick={exportCsv}
                loading={exporting}
              >
                Export Details
              </Button>
            </Group>
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <Paper withBorder radius="md" p="md">
              <Text fw={600} fz="sm" mb="xs">
                Votes
              </Text>
              {pie.length === 0 ? (
                <Center h={180}>
                  <Text c="dimmed" fz="sm">
                    No votes yet
                  </Text>
                </Center>
              ) : buttons ? (
                <Box data-testid="poll-bars">
                  <BarChart
                    h={200}
                    data={options.map((o) => ({ option: o.value, votes: o.count }))}
                    dataKey="option"
                    series={[{ name: 'votes', label: 'Votes', color: 'blue.6' }]}
                    gridAxis="y"
                    maxBarWidth={36}
                    yAxisProps={{ allowDecimals: false }}
                    aria-label={`Votes: ${options.map((o) => `${o.value} ${o.count}`).join(', ')}`}
                  />
                </Box>
              ) : (
                <Center data-testid="poll-pie">
                  <PieChart
                    role="img"
                    size={180}
                    withTooltip
                    tooltipDataSource="segment"
                    withLabelsLine={false}
                    data={pie}
                    aria-label={`Votes: ${pie.map((p) => `${p.name} ${p.value}`).join(', ')}`}
                  />
                </Center>
              )}
              <Text fz="xs" c="dimmed" ta="center" mt="xs">
                {poll.total_votes} vote{poll.total_votes === 1 ? '' : 's'}
                {buttons ? ` from ${poll.voter_count} voter${poll.voter_count === 1 ? '' : 's'}` : ''}
              </Text>
            </Paper>
            <Paper withBorder radius="md" p="md">
              <Text fw={600} fz="sm" mb="xs">
                Options
              </Text>
              <DataTable
                label="Poll options"
                columns={OPTION_COLUMNS}
                rows={options}
                rowId={(o) => String(o.index)}
                pageSize={POLL_OPTIONS_PAGE}
                verticalSpacing="xs"
              />
            </Paper>
          </SimpleGrid>
          {poll.anonymous ? (
            <Paper withBorder radius="md" p="md">
              <Text fw={600} fz="sm" mb="xs">
                Voters
              </Text>
              <Text fz="sm" c="dimmed">
                {POLL_TEXTS.anonymous}
              </Text>
            </Paper>
          ) : (
            <Paper withBorder radius="md" p="md">
              <Text fw={600} fz="sm" mb="xs">
                Voters
              </Text>
              <DataTable
                label="Poll voters"
                columns={VOTER_COLUMNS}
                rows={voters.data}
                rowId={(v) => v.user_id}
                loading={voters.isPending}
                error={voters.error ? errorMessage(voters.error) : null}
                emptyText="No one has voted yet"
                search={{ label: 'Search voters', width: 240 }}
                pageSize={POLL_VOTERS_PAGE}
                selection={{ selected, onChange: setSelected, rowLabel: (v) => v.name }}
                countLabel={(n) => `${n} voter${n === 1 ? '' : 's'}`}
                toolbar={
                  <ActGate>
                    {(disabled) => (
                      <Group gap="xs">
                        {SendDm ? (
                          <Button
                            leftSection={<IconSend size={16} />}
                            disabled={disabled || selected.size === 0}
                            onClick={() => setActing('dm')}
                          >
                            Send DM
                          </Button>
                        ) : null}
                        <Button
                          variant="default"
                          leftSection={<IconForms size={16} />}
                          disabled={disabled || selected.size === 0}
                          onClick={() => setActing('form')}
                        >
                          Send Form
                        </Button>
                      </Group>
                    )}
                  </ActGate>
                }
                verticalSpacing="xs"
              />
            </Paper>
          )}
        </Stack>
      )}
      {SendDm ? (
        <SendDm
          opened={acting === 'dm'}
          onClose={() => setActing(null)}
          memberIds={[...selected]}
          onDone={() => setSelected(new Set())}
        />
      ) : null}
      <SendFormModal
        opened={acting === 'form'}
        onClose={() => setActing(null)}
        memberIds={[...selected]}
        onSent={() => setSelected(new Set())}
      />
    </LazyModal>
  );
}
