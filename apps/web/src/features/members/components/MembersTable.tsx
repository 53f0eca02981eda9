import { Anchor, Center, Checkbox, Loader, Table, Text, UnstyledButton, Group } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconSelector } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Member, Tag } from '@flywheel/shared/directory';
import type { MemberSortField } from '@flywheel/shared/members';
import { TAGS_IN_CELL, TagBadges } from './TagBadges.tsx';

export type Sort = { field: MemberSortField; direction: 'asc' | 'desc' };

type Column = { field: MemberSortField | null; label: string; numeric?: boolean };
/** Spec section 2: the Members Data columns (User Id is kept as the row key, not shown). */
const COLUMNS: Column[] = [
  { field: 'real_name', label: 'Real name' },
  { field: 'display_name', label: 'Display name' },
  { field: 'email', label: 'Email' },
  { field: 'messages', label: 'Messages count', numeric: true },
  { field: 'reactions', label: 'Reactions Count', numeric: true },
  { field: 'replies', label: 'Replies Count', numeric: true },
  { field: 'last_active', label: 'Last active' },
  { field: null, label: 'Tags' },
];

/** Microsecond timestamp to a short local date and time; 0 means never. */
export function formatLastActive(us: number): string {
  if (!us) return 'Not-Active';
  return new Date(us / 1000).toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}

type MembersTableProps = {
  rows: Member[] | undefined;
  loading: boolean;
  error: string | null;
  sort: Sort;
  onSort(next: Sort): void;
  selected: ReadonlySet<string>;
  onSelect(ids: string[], on: boolean): void;
  onRemoveTag(member: Member, tag: Tag): void;
  removing: boolean;
};

export function MembersTable(p: MembersTableProps) {
  const rows = p.rows ?? [];
  const pageIds = rows.map((r) => r.member_id);
  const allChecked = pageIds.length > 0 && pageIds.every((id) => p.selected.has(id));
  const someChecked = pageIds.some((id) => p.selected.has(id));

  const header = (c: Column) => {
    if (!c.field) return c.label;
    const active = p.sort.field === c.field;
    const Icon = !active ? IconSelector : p.sort.direction === 'asc' ? IconArrowUp : IconArrowDown;
    return (
      <UnstyledButton
        onClick={() =>
          p.onSort({
            field: c.field!,
            direction: active && p.sort.direction === 'desc' ? 'asc' : 'desc',
          })
        }
        fw={600}
        fz="sm"
      >
        <Group gap={4} wrap="nowrap">
          {c.label}
          <Icon size={14} />
        </Group>
      </UnstyledButton>
    );
  };

  return (
    <Table.ScrollContainer minWidth={960}>
      <Table striped highlightOnHover aria-label="Members Data" verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40}>
              <Checkbox
                aria-label="Select all rows on this page"
                checked={allChecked}
                indeterminate={someChecked && !allChecked}
                onChange={(e) => p.onSelect(pageIds, e.currentTarget.checked)}
              />
            </Table.Th>
            {COLUMNS.map((c) => (
              <Table.Th
                key={c.label}
                aria-sort={
                  c.field && p.sort.field === c.field
                    ? p.sort.direction === 'asc'
                      ? 'ascending'
                      : 'descending'
                    : undefined
                }
              >
                {header(c)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((m) => (
            <Table.Tr key={m.member_id} data-member-id={m.member_id}>
              <Table.Td>
                <Checkbox
                  aria-label={`Select ${m.real_name || m.display_name}`}
                  checked={p.selected.has(m.member_id)}
                  onChange={(e) => p.onSelect([m.member_id], e.currentTarget.checked)}
                />
              </Table.Td>
              <Table.Td>
                <Anchor component={Link} to={`/dashboard/members/${encodeURIComponent(m.member_id)}`} fz="sm">
                  {m.real_name || m.display_name || m.member_id}
                </Anchor>
              </Table.Td>
              <Table.Td>{m.display_name}</Table.Td>
              <Table.Td>{m.email}</Table.Td>
              <Table.Td>{m.messages}</Table.Td>
              <Table.Td>{m.reactions}</Table.Td>
              <Table.Td>{m.replies}</Table.Td>
              <Table.Td>{formatLastActive(m.last_active)}</Table.Td>
              <Table.Td>
                <TagBadges
                  tags={m.tags ?? []}
                  owner={m.real_name || m.display_name}
                  limit={TAGS_IN_CELL}
                  moreHref={`/dashboard/members/${encodeURIComponent(m.member_id)}#tags`}
                  disabled={p.removing}
                  onRemove={(t) => p.onRemoveTag(m, t)}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {p.loading && rows.length === 0 ? (
        <Center py="xl">
          <Loader aria-label="Loading members" />
        </Center>
      ) : null}
      {p.error ? (
        <Text c="red" ta="center" py="lg">
          {p.error}
        </Text>
      ) : null}
      {!p.loading && !p.error && rows.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg">
          No members match these filters.
        </Text>
      ) : null}
    </Table.ScrollContainer>
  );
}
