import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import type { Member, Tag } from '@flywheel/shared/directory';
import { MEMBER_PAGE_SIZES, type MemberSortField } from '@flywheel/shared/members';
import { DataTable, type DataColumn, type DataTableServer } from '../../../components/DataTable.tsx';
import { TAGS_IN_CELL, TagBadges } from './TagBadges.tsx';

export type Sort = { field: MemberSortField; direction: 'asc' | 'desc' };

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

const memberHref = (m: Member) => `/dashboard/members/${encodeURIComponent(m.member_id)}`;
const ownerName = (m: Member) => m.real_name || m.display_name;

/** Spec section 2: the Members Data columns (User Id is kept as the row key, not shown). Ids are sort fields. */
function membersColumns(onRemoveTag: (m: Member, t: Tag) => void, removing: boolean): DataColumn<Member>[] {
  const sortable = true;
  return [
    {
      id: 'real_name',
      header: 'Real name',
      sortable,
      value: (m) => m.real_name,
      cell: (m) => (
        <Anchor component={Link} to={memberHref(m)} fz="sm">
          {m.real_name || m.display_name || m.member_id}
        </Anchor>
      ),
    },
    { id: 'display_name', header: 'Display name', sortable, value: (m) => m.display_name },
    { id: 'email', header: 'Email', sortable, value: (m) => m.email },
    { id: 'messages', header: 'Messages count', sortable, value: (m) => m.messages },
    { id: 'reactions', header: 'Reactions Count', sortable, value: (m) => m.reactions },
    { id: 'replies', header: 'Replies Count', sortable, value: (m) => m.replies },
    { id: 'last_active', header: 'Last active', sortable, value: (m) => formatLastActive(m.last_active) },
    {
      id: 'tags',
      header: 'Tags',
      cell: (m) => (
        <TagBadges
          tags={m.tags ?? []}
          owner={ownerName(m)}
          limit={TAGS_IN_CELL}
          moreHref={`${memberHref(m)}#tags`}
          disabled={removing}
          onRemove={(t) => onRemoveTag(m, t)}
        />
      ),
    },
  ];
}

type MembersTableProps = {
  rows: Member[] | undefined;
  loading: boolean;
  error: string | null;
  /** Server paging and sorting. */
  page: number;
  pageSize: number;
  total: number;
  onPage(page: number): void;
  onPageSize(size: number): void;
  sort: Sort;
  onSort(next: Sort): void;
  selected: ReadonlySet<string>;
  onSelect(next: Set<string>): void;
  search: string;
  onSearch(value: string): void;
  /** Filters beside the search box. */
  toolbar: React.ReactNode;
  /** CSV of the checked members, or of every member the filters match when none is checked. */
  onExport(selectedIds: string[]): Promise<void>;
  onRemoveTag(member: Member, tag: Tag): void;
  removing: boolean;
};

/** The Members Data table: the server pages, sorts and searches; tags are removable badges. */
export function MembersTable(p: MembersTableProps) {
  const server: DataTableServer = {
    page: p.page,
    pageSize: p.pageSize,
    total: p.total,
    onPageChange: p.onPage,
    sort: { id: p.sort.field, desc: p.sort.direction === 'desc' },
    onSortChange: (s) => p.onSort({ field: s.id as MemberSortField, direction: s.desc ? 'desc' : 'asc' }),
  };
  return (
    <DataTable
      label="Members Data"
      columns={membersColumns(p.onRemoveTag, p.removing)}
      rows={p.rows}
      rowId={(m) => m.member_id}
      rowProps={(m) => ({ 'data-member-id': m.member_id })}
      loading={p.loading}
      error={p.error}
      emptyText="No members match these filters."
      server={server}
      pageSizes={MEMBER_PAGE_SIZES}
      onPageSizeChange={p.onPageSize}
      search={{
        label: 'Search members data',
        placeholder: 'Search name or e-mail',
        value: p.search,
        onChange: p.onSearch,
      }}
      toolbar={p.toolbar}
      countLabel={(n) => `${n} member${n === 1 ? '' : 's'}`}
      selection={{ selected: p.selected, onChange: p.onSelect, rowLabel: ownerName }}
      csv={{ fileName: 'Members Data', onExport: p.onExport }}
      minWidth={960}
      highlightOnHover
      verticalSpacing="sm"
    />
  );
}
