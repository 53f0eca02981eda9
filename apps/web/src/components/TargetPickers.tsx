import { MultiSelect } from '@mantine/core';
import { useMemberEntrySources } from '../entities/members/index.ts';
import { EntryPicker } from './EntryPicker.tsx';
import { useChannels } from '../entities/workspace/index.ts';
import { useTags } from '../entities/tags/index.ts';

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
 * The member target picker of every screen: suggestions from the server as you type (at most
 * 10, members who left not offered); a typed or pasted list (comma, space or semicolon between) resolved on
 * the server by e-mail, name or id, and the entries that match nobody named under the input.
 */
export function MemberPicker(props: {
  label: string;
  value: string[];
  onChange(next: string[]): void;
  disabled?: boolean;
  placeholder?: string;
}) {
  const sources = useMemberEntrySources(props.value);
  return (
    <EntryPicker
      label={props.label}
      placeholder={props.placeholder ?? 'Search members, or paste e-mails'}
      what="member"
      emptyHint="Type a name or e-mail, or paste a list"
      options={sources.options}
      searchOptions={sources.searchOptions}
      lookupOptions={sources.lookupOptions}
      value={props.value}
      onChange={props.onChange}
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
