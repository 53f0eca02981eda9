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
};

const SEPARATOR = /[,;\s]/;

/**
 * A target picker (spec section 5): typed or pasted text splits on comma, space or semicolon; entries resolve
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
}: EntryPickerProps) {
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, SUGGESTION_DEBOUNCE_MS);
  const [unresolved, setUnresolved] = useState<string[]>([]);
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
    searchOptions(q, abort.signal).then(
      (found) => {
        if (abort.signal.aborted) return;
        setRemoteHits(found);
        setSeen((had) => [...had, ...found]);
      },
      () => undefined,
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
      () => setUnresolved(entries),
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
        combobox.closeDropdown();
      }}
    >
      <Combobox.DropdownTarget>
        <PillsInput
          label={label}
          description={description}
          error={error || (unresolved.length ? `No ${what} matches: ${unresolved.join(', ')}` : undefined)}
          onClick={() => combobox.openDropdown()}
        >
          <Pill.Group>
            {value.map((v) => (
              <Pill
                key={v}
                withRemoveButton
                removeButtonProps={{ 'aria-label': `Remove ${byValue.get(v)?.label ?? v}` }}
                onRemove={() => onChange(value.filter((x) => x !== v))}
              >
                {byValue.get(v)?.label ?? v}
              </Pill>
            ))}
            <Combobox.EventsTarget>
              <PillsInput.Field
                aria-label={label}
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
                }}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && combobox.getSelectedOptionIndex() === -1 && typed) {
                    e.preventDefault();
                    commit(typed);
                    setSearch('');
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
          {hits.length === 0 && !(onCreate && typed) ? <Combobox.Empty>Nothing found</Combobox.Empty> : null}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
