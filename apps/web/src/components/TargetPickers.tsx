import { useMemo } from 'react';
import { MultiSelect } from '@mantine/core';
import { useChannels, useMembers, useTags } from '../lib/workspace-data.ts';

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

/** The workspace's members (not deactivated) as picker options: real name, else display name, else id. */
export function useMemberOptions() {
  const members = useMembers();
  return useMemo(
    () =>
      (members.data ?? [])
        .filter((m) => !m.deleted)
        .map((m) => ({ value: m.member_id, label: m.real_name || m.display_name || m.member_id })),
    [members.data],
  );
}

/** Searchable multi-selects over the workspace's members, tags and (not archived) channels. */
export function TargetPickers({ pickers, value, onChange, disabled, labels = {} }: TargetPickersProps) {
  const memberOptions = useMemberOptions();
  const tags = useTags();
  const channels = useChannels();
  return (
    <>
      {pickers.includes('members') ? (
        <MultiSelect
          label={labels.members ?? 'Send Direct Message to members'}
          placeholder="Search members"
          data={memberOptions}
          value={value.members}
          onChange={(members) => onChange({ ...value, members })}
          searchable
          limit={10}
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
