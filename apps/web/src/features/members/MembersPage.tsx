import { useMemo, useState } from 'react';
import { Button, Card, Group, MultiSelect, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFilter, IconTag } from '@tabler/icons-react';
import type { Audience } from '@flywheel/shared/delivery';
import { DEFAULT_MEMBER_PAGE_SIZE } from '@flywheel/shared/members';
import { PageHeader } from '../../components/PageHeader.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.tsx';
import { useCurrentTeam } from '../../entities/workspace/index.ts';
import { useTags } from '../../entities/tags/index.ts';
import { downloadMembersCsv } from './api/export-members-data.ts';
import { useMembersData } from './api/get-members-data.ts';
import { useRemoveTag } from './api/remove-tag.ts';
import { useLevelCounts } from './api/member-levels.ts';
import { ENGAGEMENT_LEVELS, LEVEL_LABELS, type EngagementLevel } from '@flywheel/shared/levels';
import { ActivityFilterModal } from '../../components/ActivityFilterModal.tsx';
import { AddTagModal } from './components/AddTagModal.tsx';
import { ChannelFilterModal } from '../../components/ChannelFilterModal.tsx';
import { JoinFilterModal } from './components/JoinFilterModal.tsx';
import { MembersTable, type Sort } from './components/MembersTable.tsx';
import { TimeFilterSelect } from '../../components/TimeFilterSelect.tsx';
import {
  activityIsSet,
  DEFAULT_FILTERS,
  DEFAULT_SORT,
  toPayload,
  type MembersFilterState,
} from './filters.ts';
import type { MembersSlots } from './slots.ts';
import { ActGate } from '../../components/ActGate.tsx';

type Popup = 'tag' | 'join' | 'activity' | 'channel' | null;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Send Message goes to the checked rows or, when none is checked, to everything the filters show. */
export function sendAudience(
  selected: readonly string[],
  filter: NonNullable<Audience['filter']>,
  total: number,
): { audience: Audience; summary: string } {
  if (selected.length > 0)
    return {
      audience: { dms: { members: [...selected] } },
      summary: `To ${plural(selected.length, 'selected member')}`,
    };
  return { audience: { filter }, summary: `To the ${plural(total, 'member')} filtered` };
}

export function MembersPage({ SendMessage }: MembersSlots = {}) {
  const { teamId } = useCurrentTeam();
  const tags = useTags();
  const levelCounts = useLevelCounts();
  const [filters, setFilters] = useState<MembersFilterState>(DEFAULT_FILTERS);
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const [sort, setSort] = useState<Sort>(DEFAULT_SORT);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(DEFAULT_MEMBER_PAGE_SIZE);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [popup, setPopup] = useState<Popup>(null);

  const base = useMemo(() => toPayload(teamId, filters), [teamId, filters]);
  const request = useMemo(
    () => ({ ...base, search: debouncedSearch.trim() || undefined, sort, page, page_size: pageSize }),
    [base, debouncedSearch, sort, page, pageSize],
  );
  const data = useMembersData(request);
  const remove = useRemoveTag();
  const total = data.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / pageSize));

  // Send Message's audience: the filter payload without team_id, sort or paging (audienceSchema's filter).
  const sendTo = useMemo(() => {
    const { team_id: _teamId, ...filter } = base;
    const query = debouncedSearch.trim();
    return sendAudience([...selected], query ? { ...filter, search: query } : filter, total);
  }, [base, debouncedSearch, selected, total]);

  const update = (next: Partial<MembersFilterState>) => {
    setFilters((f) => ({ ...f, ...next }));
    setPage(1);
  };
  const active = (on: boolean) => (on ? 'filled' : 'default');

  return (
    <>
      <PageHeader title="Members" description="Everyone in your workspace, with their activity and tags." />
      <Card withBorder radius="md" padding="lg">
        <Stack gap="md">
          <Group justify="space-between" wrap="wrap" gap="sm">
            <Text fw={600} fz="lg" component="h2">
              Members Data
            </Text>
            <Group gap="xs" wrap="wrap">
              {SendMessage ? (
                <SendMessage
                  audience={sendTo.audience}
                  summary={sendTo.summary}
                  onSent={() => setSelected(new Set())}
                />
              ) : null}
              <ActGate>
                {(viewer) => (
                  <Button
                    leftSection={<IconTag size={16} />}
                    variant="light"
                    onClick={() => setPopup('tag')}
                    disabled={viewer}
                  >
                    Add Tag
                  </Button>
                )}
              </ActGate>
              <Button
                leftSection={<IconFilter size={16} />}
                variant={active(filters.join !== null)}
                onClick={() => setPopup('join')}
              >
                Join Filter
              </Button>
              <Button
                leftSection={<IconFilter size={16} />}
                variant={active(activityIsSet(filters.activity))}
                onClick={() => setPopup('activity')}
              >
                Activity Filter
              </Button>
              <Button
                leftSection={<IconFilter size={16} />}
                variant={active(filters.channels.length > 0)}
                onClick={() => setPopup('channel')}
              >
                Channel Filter
              </Button>
              <TimeFilterSelect value={filters.time} onChange={(time) => update({ time })} />
            </Group>
          </Group>
          <MembersTable
            rows={data.data?.data}
            loading={data.isFetching}
            error={data.error ? errorMessage(data.error) : null}
            page={Math.min(page, pages)}
            pageSize={pageSize}
            total={total}
            left={data.data?.left ?? 0}
            filterTags={filters.tags}
            onPage={setPage}
            onPageSize={(size) => {
              setPageSize(size);
              setPage(1);
            }}
            sort={sort}
            onSort={(s) => {
              setSort(s);
              setPage(1);
            }}
            search={search}
            onSearch={(value) => {
              setSearch(value);
              setPage(1);
            }}
            toolbar={
              <>
                <MultiSelect
                  aria-label="Filter by Level"
                  placeholder={filters.levels.length ? undefined : 'Filter by Level'}
                  data={ENGAGEMENT_LEVELS.map((l) => {
                    const n = levelCounts.data?.data.find((c) => c.level === l)?.count;
                    return {
                      value: l,
                      label: n === undefined ? LEVEL_LABELS[l] : `${LEVEL_LABELS[l]} (${n})`,
                    };
                  })}
                  value={filters.levels}
                  onChange={(v) => update({ levels: v as EngagementLevel[] })}
                  clearable
                  w={220}
                />
                <MultiSelect
                  aria-label="Filter by Tag"
                  placeholder={filters.tags.length ? undefined : 'Filter by Tag'}
                  data={(tags.data ?? []).map((t) => ({ value: String(t.id), label: t.name }))}
                  value={filters.tags.map(String)}
                  onChange={(v) => update({ tags: v.map(Number) })}
                  searchable
                  clearable
                  w={240}
                />
              </>
            }
            selected={selected}
            onSelect={setSelected}
            onExport={(ids) =>
              downloadMembersCsv({
                ...base,
                search: debouncedSearch.trim() || undefined,
                sort,
                member_ids: ids.length ? ids : undefined,
              })
            }
            removing={remove.isPending}
            onRemoveTag={(m, t) =>
              remove.mutate(
                { memberId: m.member_id, tagId: t.id },
                {
                  onSuccess: (res) => notifySuccess(res.message),
                  onError: (err) => notifyFailure(errorMessage(err)),
                },
              )
            }
          />
        </Stack>
      </Card>

      <AddTagModal
        opened={popup === 'tag'}
        memberIds={[...selected]}
        onClose={() => setPopup(null)}
        onAdded={() => setSelected(new Set())}
      />
      <JoinFilterModal
        opened={popup === 'join'}
        value={filters.join}
        onClose={() => setPopup(null)}
        onApply={(join) => {
          update({ join });
          setPopup(null);
        }}
      />
      <ActivityFilterModal
        opened={popup === 'activity'}
        value={filters.activity}
        onClose={() => setPopup(null)}
        onApply={(activity) => {
          update({ activity: activityIsSet(activity) ? activity : null });
          setPopup(null);
        }}
      />
      <ChannelFilterModal
        opened={popup === 'channel'}
        value={filters.channels}
        onClose={() => setPopup(null)}
        onApply={(channels) => {
          update({ channels });
          setPopup(null);
        }}
      />
    </>
  );
}
