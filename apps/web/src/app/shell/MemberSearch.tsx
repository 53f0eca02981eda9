import { useMemo, useState } from 'react';
import { Avatar, Combobox, Group, Loader, Text, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { useMemberSearch } from '../../entities/members/index.ts';

export type SearchableMember = { member_id: string; real_name: string; display_name?: string };

/** Hits shown at most (suggestion lists capped at 10). */
export const SEARCH_LIMIT = 10;
const DEBOUNCE_MS = 150;

type Indexed<M> = { member: M; name: string };

/** Lower-cases every real_name once, so each keystroke only scans. */
export function indexMembers<M extends SearchableMember>(members: readonly M[]): Indexed<M>[] {
  return members.map((member) => ({ member, name: (member.real_name ?? '').toLowerCase() }));
}

/**
 * Case-insensitive substring match on real_name. Stops after `limit` hits (plus one, to know
 * whether there are more), so 50,000 members cost one short scan per query.
 */
export function searchIndex<M>(
  index: readonly Indexed<M>[],
  query: string,
  limit = SEARCH_LIMIT,
): { hits: M[]; more: boolean } {
  const q = query.trim().toLowerCase();
  if (!q) return { hits: [], more: false };
  const hits: M[] = [];
  for (const entry of index) {
    if (entry.name.includes(q)) {
      if (hits.length === limit) return { hits, more: true };
      hits.push(entry.member);
    }
  }
  return { hits, more: false };
}

export function matchMembers<M extends SearchableMember>(
  members: readonly M[],
  query: string,
  limit = SEARCH_LIMIT,
): M[] {
  return searchIndex(indexMembers(members), query, limit).hits;
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return (
    (parts[0]?.[0] ?? '') + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '')
  ).toUpperCase();
}

type MemberSearchProps = {
  /**
   * Members to search in the browser. Without them (the top bar) the server searches the workspace
   * (GET /members/search, at most 10 hits): the directory is never loaded whole.
   */
  members?: readonly SearchableMember[];
  /** The members are still loading. */
  loading?: boolean;
};

/** The top bar's member search: hits link to /dashboard/members/{member_id}, else 'no user found'. */
export function MemberSearch({ members, loading: membersLoading = false }: MemberSearchProps) {
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query, DEBOUNCE_MS);
  const navigate = useNavigate();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const local = members !== undefined;
  const remote = useMemberSearch(local ? '' : debounced, { left: true });
  const index = useMemo(() => indexMembers(members ?? []), [members]);
  const found = useMemo(
    () =>
      local
        ? searchIndex(index, debounced)
        : { hits: remote.data?.data ?? [], more: remote.data?.more ?? false },
    [local, index, debounced, remote.data],
  );
  const { hits, more } = found;
  const loading = local ? membersLoading : remote.isFetching;
  // Remote hits belong to the query they answer (kept while the next one loads).
  const settled = debounced.trim() === query.trim() && (local || !remote.isPlaceholderData);

  return (
    <Combobox
      store={combobox}
      width="target"
      shadow="md"
      onOptionSubmit={(memberId) => {
        combobox.closeDropdown();
        setQuery('');
        navigate(`/dashboard/members/${encodeURIComponent(memberId)}`);
      }}
    >
      <Combobox.Target>
        <TextInput
          aria-label="Search members"
          placeholder="Search members"
          leftSection={<IconSearch size={16} />}
          rightSection={loading && query.trim() ? <Loader size={14} /> : null}
          size="sm"
          radius="md"
          w={{ base: 160, sm: 260, lg: 340 }}
          value={query}
          onChange={(e) => {
            setQuery(e.currentTarget.value);
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
          }}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && combobox.getSelectedOptionIndex() === -1 && hits[0]) {
              combobox.selectFirstOption();
            }
          }}
          styles={{ input: { background: 'var(--mantine-color-gray-0)' } }}
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={query.trim() === '' || !settled}>
        <Combobox.Options aria-label="Members found">
          {hits.length > 0 ? (
            hits.map((m) => (
              <Combobox.Option value={m.member_id} key={m.member_id}>
                <Group gap="sm" wrap="nowrap">
                  <Avatar size={26} radius="xl" color="brand" variant="light" aria-hidden>
                    {initials(m.real_name)}
                  </Avatar>
                  <div style={{ minWidth: 0 }}>
                    <Text fz="sm" fw={500} truncate>
                      {m.real_name}
                    </Text>
                    {m.display_name && m.display_name !== m.real_name ? (
                      <Text fz="xs" c="dimmed" truncate>
                        @{m.display_name}
                      </Text>
                    ) : null}
                  </div>
                </Group>
              </Combobox.Option>
            ))
          ) : (
            <Combobox.Empty>{loading ? 'Loading members…' : 'no user found'}</Combobox.Empty>
          )}
        </Combobox.Options>
        {more ? (
          <Combobox.Footer>
            <Text fz="xs" c="dimmed">
              Showing the first {SEARCH_LIMIT} matches. Keep typing to narrow down.
            </Text>
          </Combobox.Footer>
        ) : null}
      </Combobox.Dropdown>
    </Combobox>
  );
}
