import { useEffect, useMemo, useRef, useState } from 'react';
import { Combobox, Pill, PillsInput, Text, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { SUGGESTION_DEBOUNCE_MS } from '@flywheel/shared/constants';
import { resolveEntries, splitEntries, suggest, type PickOption } from '../lib/entries.ts';

type EntryPickerProps = {
  label: string;
  placeholder?: string;
  options: readonly PickOption[];
  value: string[];
  onChange(next: string[]): void;
  /** Offers '+ create tag' for a typed name that matches nothing. */
  onCreate?(name: string): void;
  createLabel?: string;
  /** A line under the input (what is under way). */
  description?: string;
  error?: string | null;
  what?: string;
  /**
   * Suggestions from the server for the debounced input (members at 50,000: at most 10), instead of
   * filtering `options`; `options` then only needs the chosen entries (for their names).
   */
  searchOptions?(query: string, signal: AbortSignal): Promise<PickOption[]>;
  /** Options the typed or pasted entries name exactly (e-mails, names), asked from the server before resolving. */
  lookupOptions?(entries: string[]): Promise<PickOption[]>;
  /** With searchOptions: what the empty list says before anything is typed. */
  emptyHint?: string;
  disabled?: boolean;
};

/** How many unmatched entries the message names; the rest are counted. */
const NAMED_MISSES = 10;

/** '2 members not found: a@x.com, b@y.com' (the first ten named, then 'and N more'). */
export function notFoundMessage(what: string, missing: readonly string[]): string {
  const unique = [...new Set(missing)];
  const named = unique.slice(0, NAMED_MISSES).join(', ');
  const more = unique.length > NAMED_MISSES ? ` and ${unique.length - NAMED_MISSES} more` : '';
  return `${unique.length} ${what}${unique.length === 1 ? '' : 's'} not found: ${named}${more}`;
}

const SEPARATOR = /[,;\s]/;

/**
 * A target picker: typed or pasted text splits on comma, space or semicolon; entries resolve
 * to options by e-mail or name, case-insensitively; suggestions follow the input 1000 ms after typing stops,
 * at most 10.
 */
export function EntryPicker({
  label,
  placeholder,
  options,
  value,
  onChange,
  onCreate,
  createLabel = '+ create tag',
  description,
  error,
  what = 'entry',
  searchOptions,
  lookupOptions,
  emptyHint = 'Type to search',
  disabled,
}: EntryPickerProps) {
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, SUGGESTION_DEBOUNCE_MS);
  const [unresolved, setUnresolved] = useState<string[]>([]);
  const [lookupFailed, setLookupFailed] = useState<string | null>(null);
  const [searching, setSearching] = useState(false);
  // Options met on the way (server hits and looked-up entries), so chosen ones keep their names.
  const [seen, setSeen] = useState<readonly PickOption[]>([]);
  const [remoteHits, setRemoteHits] = useState<PickOption[]>([]);
  const known = useMemo(() => [...options, ...seen], [options, seen]);
  const byValue = useMemo(() => new Map(known.map((o) => [o.value, o])), [known]);
  const selected = useMemo(() => new Set(value), [value]);
  useEffect(() => {
    if (!searchOptions) return;
    const q = debounced.trim();
    if (!q) return setRemoteHits([]);
    const abort = new AbortController();
    setSearching(true);
    searchOptions(q, abort.signal).then(
      (found) => {
        if (abort.signal.aborted) return;
        setRemoteHits(found);
        setSeen((had) => [...had, ...found]);
        setSearching(false);
      },
      () => {
        if (!abort.signal.aborted) setSearching(false);
      },
    );
    return () => abort.abort();
  }, [debounced, searchOptions]);
  const hits = useMemo(
    () =>
      searchOptions
        ? remoteHits.filter((o) => !selected.has(o.value))
        : suggest(debounced, options, selected),
    [searchOptions, remoteHits, debounced, options, selected],
  );
  const typed = search.trim();
  const exact = typed !== '' && known.some((o) => o.label.toLowerCase() === typed.toLowerCase());

  const current = useRef(value);
  current.current = value;
  const add = (values: string[]) => {
    const had = new Set(current.current);
    const next = [...current.current, ...values.filter((v) => !had.has(v))];
    current.current = next;
    onChange(next);
  };
  const commit = (text: string) => {
    setLookupFailed(null);
    if (!lookupOptions) {
      const { found, unresolved: missing } = resolveEntries(text, options);
      add(found.map((f) => f.value));
      setUnresolved(missing);
      return;
    }
    // The server names the candidates; the same rules as above pick among them.
    const entries = splitEntries(text);
    if (entries.length === 0) return;
    lookupOptions(entries).then(
      (found) => {
        setSeen((had) => [...had, ...found]);
        const resolved = resolveEntries(text, [...known, ...found]);
        add(resolved.found.map((f) => f.value));
        setUnresolved(resolved.unresolved);
      },
      // Not 'not found': nobody was asked. The entries go back into the input, to try again.
      () => {
        setUnresolved([]);
        setLookupFailed(
          `Could not look up ${entries.length === 1 ? entries[0] : `${entries.length} entries`}; try again`,
        );
        setSearch((now) => now || entries.join(' '));
      },
    );
  };

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(v) => {
        if (v === '__create__') onCreate?.(typed);
        else add([v]);
        setSearch('');
        setUnresolved([]);
        setLookupFailed(null);
        combobox.closeDropdown();
      }}
    >
      <Combobox.DropdownTarget>
        <PillsInput
          label={label}
          description={description}
          error={error || lookupFailed || (unresolved.length ? notFoundMessage(what, unresolved) : undefined)}
          disabled={disabled}
          onClick={() => combobox.openDropdown()}
        >
          <Pill.Group>
            {value.map((v) => (
              <Pill
                key={v}
                withRemoveButton={!disabled}
                removeButtonProps={{ 'aria-label': `Remove ${byValue.get(v)?.label ?? v}` }}
                onRemove={() => onChange(value.filter((x) => x !== v))}
              >
                {byValue.get(v)?.label ?? v}
              </Pill>
            ))}
            <Combobox.EventsTarget withExpandedAttribute>
              <PillsInput.Field
                aria-label={label}
                disabled={disabled}
                placeholder={value.length ? undefined : placeholder}
                value={search}
                onFocus={() => combobox.openDropdown()}
                onBlur={() => combobox.closeDropdown()}
                onChange={(e) => {
                  const text = e.currentTarget.value;
                  combobox.openDropdown();
                  combobox.updateSelectedOptionIndex();
                  // A separator completes the entries before it; the rest stays in the input.
                  if (SEPARATOR.test(text)) {
                    const parts = text.split(SEPARATOR);
                    const rest = parts.pop() ?? '';
                    commit(parts.join(','));
                    setSearch(rest);
                  } else setSearch(text);
                }}
                onPaste={(e) => {
                  const text = e.clipboardData.getData('text');
                  if (!SEPARATOR.test(text)) return;
                  e.preventDefault();
                  commit(`${search}${text}`);
                  setSearch('');
                  // What became of the list (its names, what matched nobody) shows, not the empty suggestions.
                  combobox.closeDropdown();
                }}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && combobox.getSelectedOptionIndex() === -1 && typed) {
                    e.preventDefault();
                    commit(typed);
                    setSearch('');
                    combobox.closeDropdown();
                  } else if (e.key === 'Backspace' && search === '' && value.length > 0) {
                    e.preventDefault();
                    onChange(value.slice(0, -1));
                  }
                }}
              />
            </Combobox.EventsTarget>
          </Pill.Group>
        </PillsInput>
      </Combobox.DropdownTarget>
      <Combobox.Dropdown>
        <Combobox.Options mah={260} style={{ overflowY: 'auto' }}>
          {hits.map((o) => (
            <Combobox.Option value={o.value} key={o.value}>
              <Text fz="sm">{o.label}</Text>
              {o.email ? (
                <Text fz="xs" c="dimmed">
                  {o.email}
                </Text>
              ) : null}
            </Combobox.Option>
          ))}
          {onCreate && typed && !exact ? (
            <Combobox.Option value="__create__">
              <Text fz="sm" c="brand">
                {createLabel} “{typed}”
              </Text>
            </Combobox.Option>
          ) : null}
          {hits.length === 0 && !(onCreate && typed) ? (
            <Combobox.Empty>
              {!searchOptions
                ? 'Nothing found'
                : !typed
                  ? emptyHint
                  : searching || debounced.trim() !== typed
                    ? 'Searching…'
                    : 'Nothing found'}
            </Combobox.Empty>
          ) : null}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
