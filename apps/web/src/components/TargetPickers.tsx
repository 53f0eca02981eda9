import { useMemo, useState } from 'react';
import { MultiSelect } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { nameOfHit, useMemberNames, useMemberSearch } from '../lib/member-directory.ts';
import { useChannels, useTags } from '../lib/workspace-data.ts';

/** The member picker asks the server this long after typing stops. */
export const MEMBER_SEARCH_DEBOUNCE_MS = 300;

/** Pickers a send can show: DM members, DM tags, post in channels. */
export type TargetPicker = 'members' | 'tags' | 'channels';
/** What the pickers hold: member ids, tag ids (as strings) and channel ids. */
export type PickedTargets = { members: string[]; tags: string[]; channels: string[] };
export const NO_TARGETS: PickedTargets = { members: [], tags: [], channels: [] };

export type TargetPickersProps = {
  pickers: readonly TargetPicker[];
  value: PickedTargets;
  onChange(next: PickedTargets): void;
  disabled?: boolean;
  /** Labels of the pickers (defaults: 'Send Direct Message to members', '… to tags', 'Send Message On Channel'). */
  labels?: Partial<Record<TargetPicker, string>>;
};

/**
 * A multi-select of members that searches on the server as you type (at most 10 hits, members who left
 * not offered); the chosen members' names are looked up by id.
 */
export function MemberPicker(props: {
  label: string;
  value: string[];
  onChange(next: string[]): void;
  disabled?: boolean;
  placeholder?: string;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, MEMBER_SEARCH_DEBOUNCE_MS);
  const found = useMemberSearch(debounced);
  const chosen = useMemberNames(props.value);
  const data = useMemo(() => {
    const options = props.value.map((id) => {
      const hit = chosen.byId.get(id);
      return { value: id, label: hit ? nameOfHit(hit) : id };
    });
    const taken = new Set(props.value);
    for (const hit of found.data?.data ?? [])
      if (!taken.has(hit.member_id)) options.push({ value: hit.member_id, label: nameOfHit(hit) });
    return options;
  }, [props.value, chosen.byId, found.data]);
  const typed = search.trim() !== '';
  return (
    <MultiSelect
      label={props.label}
      placeholder={props.placeholder ?? 'Search members'}
      data={data}
      value={props.value}
      onChange={props.onChange}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The server filtered them already (names, display names and e-mails).
      filter={({ options }) => options}
      hidePickedOptions
      nothingFoundMessage={
        !typed
          ? 'Type a name or e-mail'
          : found.isFetching || debounced !== search
            ? 'Searching…'
            : 'Nothing found'
      }
      limit={10 + props.value.length}
      disabled={props.disabled}
    />
  );
}

/** Searchable multi-selects over the workspace's members, tags and (not archived) channels. */
export function TargetPickers({ pickers, value, onChange, disabled, labels = {} }: TargetPickersProps) {
  const tags = useTags();
  const channels = useChannels();
  return (
    <>
      {pickers.includes('members') ? (
        <MemberPicker
          label={labels.members ?? 'Send Direct Message to members'}
          value={value.members}
          onChange={(members) => onChange({ ...value, members })}
          disabled={disabled}
        />
      ) : null}
      {pickers.includes('tags') ? (
        <MultiSelect
          label={labels.tags ?? 'Send Direct Message to tags'}
          placeholder="Search tags"
          data={(tags.data ?? []).map((t) => ({ value: String(t.id), label: t.name }))}
          value={value.tags}
          onChange={(tagIds) => onChange({ ...value, tags: tagIds })}
          searchable
          disabled={disabled}
        />
      ) : null}
      {pickers.includes('channels') ? (
        <MultiSelect
          label={labels.channels ?? 'Send Message On Channel'}
          placeholder="Search channels"
          data={(channels.data ?? [])
            .filter((c) => !c.is_archived)
            .map((c) => ({ value: c.channel_id, label: `#${c.channel_name}` }))}
          value={value.channels}
          onChange={(ids) => onChange({ ...value, channels: ids })}
          searchable
          limit={10}
          disabled={disabled}
        />
      ) : null}
    </>
  );
}
