import { Badge, Group, Tooltip } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Member, Tag } from '@flywheel/shared/directory';
import { MEMBER_PAGE_SIZES, type MemberSortField } from '@flywheel/shared/members';
import { DataTable, type DataColumn, type DataTableServer } from '../../../components/DataTable.tsx';
import { formatDate, formatDateTime } from '../../../lib/format-date.ts';
import classes from './members-table.module.css';
import { TAGS_IN_CELL, TagBadges } from './TagBadges.tsx';
import { LEVEL_LABELS } from '@flywheel/shared/levels';
import { LevelBadge } from '../../../entities/members/index.ts';

export type Sort = { field: MemberSortField; direction: 'asc' | 'desc' };

/** Microsecond timestamp to the app's date and time; 0 means never. */
export function formatLastActive(us: number): string {
  if (!us) return 'Not-Active';
  return formatDateTime(us / 1000);
}

/** The name a member goes by: display name, else real name (as Home's Top Performing Members shows it). */
export const displayName = (m: Pick<Member, 'display_name' | 'real_name'>) => m.display_name || m.real_name;

export const LEFT_HINT =
  "Left the workspace (deactivated in Slack). Still listed here with their history; Analytics' Overall members does not count them.";

/** The 'Left' marker of a member who is no longer in the workspace. */
export function LeftBadge() {
  return (
    <Tooltip label={LEFT_HINT} multiline w={260} withArrow>
      <Badge size="xs" variant="outline" color="gray.7" tt="none" style={{ flex: 'none' }} tabIndex={0}>
        Left
      </Badge>
    </Tooltip>
  );
}

/** 'N members', and how many of them left with why Analytics counts fewer. */
export function MembersCount({ total, left }: { total: number; left: number }) {
  const members = `${total.toLocaleString('en-US')} member${total === 1 ? '' : 's'}`;
  if (left === 0) return <>{members}</>;
  const staying = total - left;
  const why = `${left} of them left the workspace (marked Left). Analytics' Overall members counts the ${staying.toLocaleString('en-US')} still in it.`;
  return (
    <Group gap={4} wrap="nowrap" component="span">
      <span>{`${members} · ${left} left`}</span>
      <Tooltip label={why} multiline w={280} withArrow>
        <IconInfoCircle size={16} aria-label={why} role="img" tabIndex={0} style={{ flex: 'none' }} />
      </Tooltip>
    </Group>
  );
}

const memberHref = (m: Member) => `/dashboard/members/${encodeURIComponent(m.member_id)}`;
const ownerName = (m: Member) => m.real_name || m.display_name;

/**
 * A member's tags with the ones the table is filtered by first (a cell shows three): filtered by a tag, every row
 * shows it, whatever other tags the member has.
 */
function tagsFirst(tags: Tag[], first: readonly number[]): Tag[] {
  if (first.length === 0) return tags;
  return [...tags.filter((t) => first.includes(t.id)), ...tags.filter((t) => !first.includes(t.id))];
}

/** The Members Data columns (User Id is kept as the row key, not shown). Ids are sort fields. */
function membersColumns(
  onRemoveTag: (m: Member, t: Tag) => void,
  removing: boolean,
  filterTags: readonly number[],
): DataColumn<Member>[] {
  const sortable = true;
  return [
    {
      id: 'real_name',
      header: 'Real name',
      sortable,
      value: (m) => m.real_name,
      nowrap: true,
      cell: (m) => (
        <span className={classes.name}>
          <Link to={memberHref(m)} className={classes.link} data-left={m.deleted || undefined}>
            {m.real_name || m.display_name || m.member_id}
          </Link>
          {m.deleted ? <LeftBadge /> : null}
        </span>
      ),
    },
    {
      id: 'display_name',
      header: 'Display name',
      sortable,
      value: displayName,
      cell: (m) => (
        <span
          className={`${classes.text} ${classes.truncate}`}
          style={{ maxWidth: 110 }}
          title={displayName(m)}
        >
          {displayName(m)}
        </span>
      ),
    },
    {
      id: 'email',
      header: 'Email',
      sortable,
      value: (m) => m.email,
      cell: (m) => (
        <span className={`${classes.text} ${classes.truncate}`} style={{ maxWidth: 150 }} title={m.email}>
          {m.email}
        </span>
      ),
    },
    // Counts are narrow: their headers wrap ('Messages / count'), leaving the Tags column room for whole names.
    {
      id: 'messages',
      header: 'Messages count',
      sortable,
      value: (m) => m.messages,
      align: 'right',
      headerWrap: true,
    },
    {
      id: 'reactions',
      header: 'Reactions Count',
      sortable,
      value: (m) => m.reactions,
      align: 'right',
      headerWrap: true,
    },
    {
      id: 'replies',
      header: 'Replies Count',
      sortable,
      value: (m) => m.replies,
      align: 'right',
      headerWrap: true,
    },
    {
      id: 'last_active',
      header: 'Last active',
      sortable,
      value: (m) => formatLastActive(m.last_active),
      // The day in the cell, the time on hover (the CSV and search keep both).
      cell: (m) => (
        <span className={`${classes.text} ${classes.nowrap}`} title={formatLastActive(m.last_active)}>
          {m.last_active ? formatDate(m.last_active / 1000) : 'Not-Active'}
        </span>
      ),
    },
    {
      id: 'level',
      header: 'Level',
      value: (m) => (m.level ? LEVEL_LABELS[m.level] : ''),
      nowrap: true,
      cell: (m) => <LevelBadge level={m.level} />,
    },
    {
      id: 'tags',
      header: 'Tags',
      // Whole tag names, wrapping one under another, readable at 1440 px (not 'M…', 'bu…').
      minWidth: 200,
      cell: (m) => (
        <TagBadges
          tags={tagsFirst(m.tags ?? [], filterTags)}
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
  /** How many of the `total` left the workspace. */
  left: number;
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
  /** The tags the table is filtered by: shown first in each row's cell. */
  filterTags: readonly number[];
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
      columns={membersColumns(p.onRemoveTag, p.removing, p.filterTags)}
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
      countLabel={(n) => <MembersCount total={n} left={p.left} />}
      selection={{ selected: p.selected, onChange: p.onSelect, rowLabel: ownerName }}
      csv={{ fileName: 'Members Data', onExport: p.onExport }}
      minWidth={1000}
      highlightOnHover
      verticalSpacing="sm"
    />
  );
}
