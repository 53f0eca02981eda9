import { useState } from 'react';
import { Link } from 'react-router';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Group,
  List,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconExternalLink } from '@tabler/icons-react';
import { DAY_CODES, type DayCode } from '@flywheel/shared/clock';
import type { Digest, DigestSettingsResponse } from '@flywheel/shared/digest';
import { formatDuration } from '@flywheel/shared/duration';
import { StatCard } from '../../components/StatCard.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { formatCount } from '../../lib/chart-labels.ts';
import { formatDayRange } from '../../lib/format-date.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.tsx';
import { useDigest, useDigestSettings, useSaveDigestSettings } from './api.ts';

const DAY_LABELS: Record<DayCode, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thurs: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};
const HOURS = Array.from({ length: 24 }, (_, h) => ({
  value: String(h),
  label: `${String(h).padStart(2, '0')}:00`,
}));
const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** "Monday 30 Nov 2026, 09:00", in the workspace's timezone. */
const whenIn = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));

/**
 * Settings › Weekly digest: the caller's own digest of this workspace (e-mail, Slack DM, day and hour) and the
 * digest itself, week by week, as it is sent.
 */
export function DigestTab() {
  return (
    <Stack gap="md">
      <div>
        <Text fw={600} fz="lg" component="h2" m={0}>
          Weekly digest
        </Text>
        <Text fz="sm" c="dimmed">
          The week of this workspace against the week before: numbers, unanswered questions, new, slipping and
          returning members, top threads and sends, each linked to its page.
        </Text>
      </div>
      <Subscription />
      <Preview />
    </Stack>
  );
}

function Subscription() {
  const q = useDigestSettings();
  const save = useSaveDigestSettings();
  if (q.error && !q.data)
    return (
      <Alert color="red" role="alert">
        {errorMessage(q.error)}
      </Alert>
    );
  if (!q.data) return <Skeleton h={150} radius="md" />;
  const s = q.data;
  const change = (next: Partial<Pick<DigestSettingsResponse, 'email' | 'slack_dm' | 'day' | 'hour'>>) =>
    save.mutate(
      { email: s.email, slack_dm: s.slack_dm, day: s.day, hour: s.hour, ...next },
      {
        onSuccess: (d) =>
          notifySuccess(
            d.email || d.slack_dm
              ? `Your weekly digest is on: next on ${whenIn(d.next_at, d.timezone)}.`
              : 'Your weekly digest is off.',
          ),
        onError: (err) => notifyFailure(errorMessage(err)),
      },
    );
  const on = s.email || s.slack_dm;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="digest-subscription">
      <Title order={3} fz="md" fw={600} id="digest-subscription" mb="sm">
        Your digest of this workspace
      </Title>
      <Stack gap="sm">
        <Switch
          label="E-mail me the weekly digest"
          description={`To ${s.email_address}`}
          checked={s.email}
          disabled={save.isPending}
          onChange={(e) => change({ email: e.currentTarget.checked })}
        />
        <Switch
          label="Also send it to me as a Slack DM"
          description={
            s.slack_user_known
              ? 'From the workspace’s bot, to your own Slack user.'
              : 'Flywheel does not know your Slack user in this workspace yet: use Add as Admin (Settings › Team) to link it.'
          }
          checked={s.slack_dm}
          disabled={save.isPending || (!s.slack_user_known && !s.slack_dm)}
          onChange={(e) => change({ slack_dm: e.currentTarget.checked })}
        />
        <Group gap="sm" align="flex-end">
          <Select
            label="Sent on"
            data={DAY_CODES.map((d) => ({ value: d, label: DAY_LABELS[d] }))}
            value={s.day}
            onChange={(v) => v && change({ day: v as DayCode })}
            allowDeselect={false}
            disabled={save.isPending}
            w={160}
          />
          <Select
            label="At"
            data={HOURS}
            value={String(s.hour)}
            onChange={(v) => v && change({ hour: Number(v) })}
            allowDeselect={false}
            disabled={save.isPending}
            w={110}
          />
          <Text fz="sm" c="dimmed" pb={8}>
            {s.timezone} (the workspace’s timezone)
          </Text>
        </Group>
        <Text fz="sm" data-testid="digest-next">
          {on
            ? `Next digest: ${whenIn(s.next_at, s.timezone)}, covering the week before (Monday to Sunday).`
            : 'Off: you get no digest of this workspace. Each admin chooses for themselves.'}
        </Text>
        {s.sent.length > 0 && (
          <div>
            <Text fz="sm" fw={600} mb={4}>
              Sent to you
            </Text>
            <List size="sm" spacing={2}>
              {s.sent.map((w) => (
                <List.Item key={w.week_start}>
                  Week of {formatDayRange(w.week_start, addDays(w.week_start, 6))}:{' '}
                  {w.email_sent_at ? `e-mailed ${whenIn(w.email_sent_at, s.timezone)}` : 'no e-mail'}
                  {w.slack_receipt_id !== null && (
                    <>
                      {', '}
                      <Anchor component={Link} to={`/dashboard/receipts?receipt=${w.slack_receipt_id}`}>
                        Slack DM
                      </Anchor>
                    </>
                  )}
                  {w.error && (
                    <Text span c="red.9" fz="sm">
                      {' '}
                      ({w.error})
                    </Text>
                  )}
                </List.Item>
              ))}
            </List>
          </div>
        )}
      </Stack>
    </Paper>
  );
}

function Preview() {
  const [week, setWeek] = useState<string | null>(null);
  const q = useDigest(week);
  const d = q.data;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="digest-preview">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={3} fz="md" fw={600} id="digest-preview">
          Preview
        </Title>
        <Group gap="xs">
          <Tooltip label="The week before">
            <ActionIcon
              variant="default"
              aria-label="The week before"
              disabled={!d}
              onClick={() => d && setWeek(addDays(d.week.start, -7))}
            >
              <IconChevronLeft size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Text fz="sm" fw={600} miw={170} ta="center" aria-live="polite">
            {d ? formatDayRange(d.week.start, d.week.end) : ' '}
          </Text>
          <Tooltip label="The week after">
            <ActionIcon
              variant="default"
              aria-label="The week after"
              disabled={!d || !d.complete}
              onClick={() => d && setWeek(addDays(d.week.start, 7))}
            >
              <IconChevronRight size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      {q.error && !d ? (
        <Alert color="red" role="alert">
          {errorMessage(q.error)}
        </Alert>
      ) : !d ? (
        <Skeleton h={320} radius="md" />
      ) : (
        <DigestView digest={d} />
      )}
    </Paper>
  );
}

function Section({
  title,
  more,
  children,
}: {
  title: string;
  more?: { label: string; link: string };
  children: React.ReactNode;
}) {
  return (
    <Stack gap={6} component="section" aria-label={title}>
      <Group justify="space-between">
        <Title order={4} fz="sm" fw={700}>
          {title}
        </Title>
        {more && (
          <Anchor component={Link} to={more.link} fz="sm">
            {more.label}
          </Anchor>
        )}
      </Group>
      {children}
    </Stack>
  );
}

const names = (g: Digest['members']['new']) =>
  g.members.length === 0
    ? ''
    : `: ${g.members.map((m) => m.name).join(', ')}${g.count > g.members.length ? ` and ${formatCount(g.count - g.members.length)} more` : ''}`;

/** The digest as the e-mail says it, for the page: user content as text, each part linked to its page. */
export function DigestView({ digest: d }: { digest: Digest }) {
  const rt = d.response_times;
  return (
    <Stack gap="lg">
      {!d.complete && (
        <Badge variant="light" color="blue" w="fit-content">
          This week so far: the digest goes out once it is over
        </Badge>
      )}
      <Section title="The week in numbers" more={{ label: 'Open Analytics', link: '/dashboard/analytics' }}>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
          {d.numbers.map((n) => (
            <StatCard
              key={n.name}
              card={{
                name: n.name,
                val: n.value,
                percent: n.percent,
                sign: n.sign,
                comparison: n.comparison,
              }}
              caption={`vs ${formatCount(n.previous)} the week before`}
            />
          ))}
        </SimpleGrid>
      </Section>
      <Section title="Questions" more={{ label: 'Open Questions', link: d.questions.link }}>
        <Text fz="sm">
          {rt.questions === 0
            ? 'No questions were asked this week.'
            : `${formatCount(rt.questions)} asked, ${formatCount(rt.answered)} answered; median first answer ${formatDuration(rt.median_seconds)}, ${rt.within_24h === null ? '–' : `${Math.round(rt.within_24h * 100)}%`} answered within 24 h.`}
        </Text>
        <Text fz="sm">
          {d.questions.total === 0
            ? 'No question waits for an answer.'
            : `${formatCount(d.questions.total)} still without an answer:`}
        </Text>
        {d.questions.top.length > 0 && (
          <List size="sm" spacing={4}>
            {d.questions.top.map((x) => (
              <List.Item key={`${x.channel_id}-${x.ts}`}>
                <Text span fz="sm" c="dimmed">
                  #{x.channel_name}, {x.sender}:{' '}
                </Text>
                <Anchor href={x.permalink} target="_blank" rel="noopener noreferrer" fz="sm">
                  {x.content.length > 140 ? `${x.content.slice(0, 139)}…` : x.content}
                  <IconExternalLink size={12} aria-hidden style={{ marginLeft: 4 }} />
                </Anchor>
              </List.Item>
            ))}
          </List>
        )}
      </Section>
      <Section title="Members">
        <List size="sm" spacing={4}>
          <List.Item>
            <Anchor component={Link} to={d.members.new.link} fz="sm">
              New: {formatCount(d.members.new.count)}
            </Anchor>
            {names(d.members.new)}
          </List.Item>
          <List.Item>
            <Anchor component={Link} to={d.members.slipping.link} fz="sm">
              Slipping: {formatCount(d.members.slipping.count)}
            </Anchor>
            {names(d.members.slipping)}
          </List.Item>
          <List.Item>
            <Anchor component={Link} to={d.members.returning.link} fz="sm">
              Returning: {formatCount(d.members.returning.count)}
            </Anchor>
            {names(d.members.returning)}
          </List.Item>
        </List>
      </Section>
      <Section title="Top threads" more={{ label: 'Open Threads', link: d.threads.link }}>
        {d.threads.top.length === 0 ? (
          <Text fz="sm" c="dimmed">
            No thread got a reply this week.
          </Text>
        ) : (
          <List size="sm" spacing={4}>
            {d.threads.top.map((t) => (
              <List.Item key={`${t.channel_id}-${t.ts}`}>
                <Text span fz="sm" fw={600}>
                  {formatCount(t.replies)} {t.replies === 1 ? 'reply' : 'replies'}
                </Text>
                <Text span fz="sm" c="dimmed">
                  {' '}
                  in #{t.channel_name}, {t.sender}:{' '}
                </Text>
                <Anchor href={t.permalink} target="_blank" rel="noopener noreferrer" fz="sm">
                  {t.content.length > 140 ? `${t.content.slice(0, 139)}…` : t.content}
                </Anchor>
              </List.Item>
            ))}
          </List>
        )}
      </Section>
      <Section title="Sends" more={{ label: 'Open Receipts', link: d.sends.link }}>
        <Text fz="sm">
          {d.sends.count === 0
            ? 'Nothing was sent this week.'
            : `${formatCount(d.sends.count)} ${d.sends.count === 1 ? 'send' : 'sends'} to ${formatCount(d.sends.recipients)} recipients: ${formatCount(d.sends.sent)} delivered, ${formatCount(d.sends.failed)} failed.`}
        </Text>
        {d.sends.with_failures.length > 0 && (
          <List size="sm" spacing={4}>
            {d.sends.with_failures.map((f) => (
              <List.Item key={f.receipt_id}>
                <Anchor component={Link} to={f.link} fz="sm" c="red.9">
                  {formatCount(f.failed)} of {formatCount(f.total)} failed
                </Anchor>
                <Text span fz="sm">
                  : {f.description}
                </Text>
              </List.Item>
            ))}
          </List>
        )}
      </Section>
    </Stack>
  );
}
