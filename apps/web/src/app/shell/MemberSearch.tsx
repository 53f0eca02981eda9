import { useState } from 'react';
import { Combobox, Text, TextInput, useCombobox } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useNavigate } from 'react-router';

export type SearchableMember = { member_id: string; real_name: string };

/** Spec section 2: case-insensitive substring match on real_name. */
export function matchMembers(members: SearchableMember[], query: string, limit = 10): SearchableMember[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  return members.filter((m) => m.real_name.toLowerCase().includes(q)).slice(0, limit);
}

type MemberSearchProps = {
  /** Loaded members of the current workspace; empty until the members feature supplies them. */
  members?: SearchableMember[];
};

/** The top bar's member search: hits link to /dashboard/members/{member_id}, else 'no user found'. */
export function MemberSearch({ members = [] }: MemberSearchProps) {
  const [query, setQuery] = useState('');
  const navigate = useNavigate();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const hits = matchMembers(members, query);

  return (
    <Combobox
      store={combobox}
      width="target"
      shadow="md"
      onOptionSubmit={(memberId) => {
        combobox.closeDropdown();
        setQuery('');
        navigate(`/dashboard/members/${memberId}`);
      }}
    >
      <Combobox.Target>
        <TextInput
          aria-label="Search members"
          placeholder="Search members"
          leftSection={<IconSearch size={16} />}
          size="sm"
          radius="md"
          w={{ base: 160, sm: 280, md: 340 }}
          value={query}
          onChange={(e) => {
            setQuery(e.currentTarget.value);
            combobox.openDropdown();
          }}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
          styles={{ input: { background: 'var(--mantine-color-gray-0)' } }}
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={query.trim() === ''}>
        <Combobox.Options>
          {hits.length > 0 ? (
            hits.map((m) => (
              <Combobox.Option value={m.member_id} key={m.member_id}>
                <Text fz="sm">{m.real_name}</Text>
              </Combobox.Option>
            ))
          ) : (
            <Combobox.Empty>no user found</Combobox.Empty>
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
