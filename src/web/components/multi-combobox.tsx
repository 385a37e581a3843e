import { Check, ChevronsUpDown, Loader2, Search, X } from 'lucide-react';
import { type KeyboardEvent, type ReactNode, useId, useMemo, useRef, useState } from 'react';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { cn } from '@/lib/utils';

export interface ComboboxOption {
  value: string;
  label: string;
  /** Options with the same group are listed under one heading, in the order given. */
  group?: string;
  /** Shown before the label (a flag, an icon). */
  prefix?: ReactNode;
  /** A second, quieter line or trailing text (a count, a state). */
  hint?: string;
  /** Other words that find this option (synonyms, codes). */
  keywords?: readonly string[];
  disabled?: boolean;
}

/**
 * Options whose label, value or a keyword contains every word of the search (case and accent blind), best
 * first: a label that starts with the search, then an exact keyword (a synonym), then the rest in order.
 */
export function filterOptions<T extends ComboboxOption>(options: readonly T[], search: string): T[] {
  const needle = fold(search).trim();
  const words = needle.split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...options];
  const scored: { option: T; score: number; index: number }[] = [];
  options.forEach((option, index) => {
    const label = fold(option.label);
    const keywords = (option.keywords ?? []).map(fold);
    const haystack = [label, fold(option.value), ...keywords].join(' ');
    if (!words.every((word) => haystack.includes(word))) return;
    const score =
      label === needle
        ? 0
        : label.startsWith(needle)
          ? 1
          : keywords.includes(needle)
            ? 2
            : label.split(/\s+/).some((word) => word.startsWith(needle)) ||
                keywords.some((keyword) => keyword.startsWith(needle))
              ? 3
              : 4;
    scored.push({ option, score, index });
  });
  return scored.sort((a, b) => a.score - b.score || a.index - b.index).map((entry) => entry.option);
}

function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/**
 * A searchable select for one or many values: a button that opens a search box over a listbox. Typing
 * filters (synonyms too), arrows move, Enter picks, Escape closes. With `multiple` the list stays open.
 */
export function MultiCombobox({
  options,
  value,
  onChange,
  multiple = true,
  placeholder,
  searchPlaceholder = 'Search…',
  emptyText = 'No matches.',
  label,
  loading,
  disabled,
  maxSelected,
  onSearchChange,
  footer,
  className,
  testId,
  id,
  'aria-describedby': describedBy,
  'aria-invalid': invalid,
}: {
  options: readonly ComboboxOption[];
  value: readonly string[];
  onChange: (next: string[]) => void;
  multiple?: boolean;
  placeholder: string;
  searchPlaceholder?: string;
  emptyText?: string;
  /** The accessible name of the trigger (the visible label's text). */
  label: string;
  loading?: boolean;
  disabled?: boolean;
  maxSelected?: number;
  /** Called as the user types, for lists the server filters (cities). */
  onSearchChange?: (search: string) => void;
  footer?: ReactNode;
  className?: string;
  testId?: string;
  /** Set by FormControl, so the form label and error message point at the trigger. */
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const listRef = useRef<HTMLDivElement>(null);

  const byValue = useMemo(() => new Map(options.map((option) => [option.value, option])), [options]);
  const visible = useMemo(() => filterOptions(options, search), [options, search]);
  const selected = new Set(value);
  const full = maxSelected !== undefined && value.length >= maxSelected;

  const setSearchText = (text: string) => {
    setSearch(text);
    setActive(0);
    onSearchChange?.(text);
  };

  const toggle = (option: ComboboxOption) => {
    if (option.disabled) return;
    if (!multiple) {
      onChange(selected.has(option.value) ? [] : [option.value]);
      setOpen(false);
      return;
    }
    if (selected.has(option.value)) onChange(value.filter((item) => item !== option.value));
    else if (!full) onChange([...value, option.value]);
  };

  const scrollTo = (index: number) => {
    listRef.current?.querySelector(`[data-index="${index}"]`)?.scrollIntoView({ block: 'nearest' });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (visible.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      const next = (active + step + visible.length) % visible.length;
      setActive(next);
      scrollTo(next);
    } else if (event.key === 'Home' || event.key === 'End') {
      if (visible.length === 0) return;
      event.preventDefault();
      const next = event.key === 'Home' ? 0 : visible.length - 1;
      setActive(next);
      scrollTo(next);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const option = visible[active];
      if (option) toggle(option);
    }
  };

  const summary =
    value.length === 0
      ? placeholder
      : value.length === 1 || !multiple
        ? (byValue.get(value[0] ?? '')?.label ?? value[0])
        : `${value.length} selected`;
  const firstSelected = value.length > 0 ? byValue.get(value[0] ?? '') : undefined;

  let lastGroup: string | undefined;
  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setSearchText('');
      }}
    >
      <PopoverTrigger asChild>
        <button
          type="button"
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          role="combobox"
          aria-expanded={open}
          aria-controls={open ? listId : undefined}
          aria-haspopup="listbox"
          aria-label={value.length ? `${label}: ${summary}` : label}
          disabled={disabled}
          className={cn(
            'flex h-9 w-full min-w-0 items-center justify-between gap-2 rounded-md border border-input bg-background px-3 py-2 text-left text-sm shadow-xs transition-[color,box-shadow] outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive aria-invalid:ring-destructive/20',
            value.length === 0 && 'text-muted-foreground',
            className,
          )}
          data-testid={testId}
        >
          <span className="flex min-w-0 items-center gap-2">
            {value.length === 1 && firstSelected?.prefix}
            <span className="truncate">{summary}</span>
          </span>
          <ChevronsUpDown className="size-4 shrink-0 opacity-50" aria-hidden="true" />
        </button>
      </PopoverTrigger>
      <PopoverContent
        className="w-(--radix-popover-trigger-width) min-w-64 p-0"
        align="start"
        onOpenAutoFocus={(event) => {
          // Focus the search box, not the first option.
          event.preventDefault();
          (event.currentTarget as HTMLElement).querySelector('input')?.focus();
        }}
      >
        <div className="flex items-center gap-2 border-b px-3">
          <Search className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <input
            value={search}
            onChange={(event) => setSearchText(event.target.value)}
            onKeyDown={onKeyDown}
            placeholder={searchPlaceholder}
            aria-label={`Search ${label.toLowerCase()}`}
            role="combobox"
            aria-expanded="true"
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={visible[active] ? `${listId}-${active}` : undefined}
            className="h-10 w-full bg-transparent text-sm outline-none placeholder:text-muted-foreground"
            data-testid={testId && `${testId}-search`}
          />
          {loading && <Loader2 className="size-4 animate-spin text-muted-foreground" aria-hidden="true" />}
        </div>
        {multiple && value.length > 0 && (
          <div className="flex items-center justify-between border-b px-3 py-1.5 text-xs text-muted-foreground">
            <span>
              {value.length} selected{maxSelected !== undefined ? ` (at most ${maxSelected})` : ''}
            </span>
            <button
              type="button"
              className="inline-flex items-center gap-1 rounded-sm px-1 font-medium text-foreground hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              onClick={() => onChange([])}
            >
              <X className="size-3" aria-hidden="true" />
              Clear
            </button>
          </div>
        )}
        <div
          ref={listRef}
          id={listId}
          role="listbox"
          aria-label={label}
          aria-multiselectable={multiple || undefined}
          className="max-h-72 overflow-y-auto p-1"
        >
          {visible.length === 0 && (
            <p className="px-2 py-6 text-center text-sm text-muted-foreground">
              {loading ? 'Loading…' : emptyText}
            </p>
          )}
          {visible.map((option, index) => {
            const isSelected = selected.has(option.value);
            const blocked = option.disabled || (!isSelected && full && multiple);
            // Ranked results mix groups, so the group shows beside each option instead of as a heading.
            const heading =
              !search.trim() && option.group && option.group !== lastGroup ? option.group : undefined;
            const hint = option.hint ?? (search.trim() ? option.group : undefined);
            lastGroup = option.group;
            return (
              <div key={option.value} role="presentation">
                {heading && (
                  <div
                    role="presentation"
                    className="px-2 pt-2 pb-1 text-xs font-semibold tracking-wide text-muted-foreground uppercase"
                  >
                    {heading}
                  </div>
                )}
                <div
                  id={`${listId}-${index}`}
                  role="option"
                  aria-selected={isSelected}
                  aria-disabled={blocked || undefined}
                  data-index={index}
                  data-active={index === active || undefined}
                  data-value={option.value}
                  tabIndex={-1}
                  onMouseMove={() => setActive(index)}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => !blocked && toggle(option)}
                  onKeyDown={() => undefined}
                  className={cn(
                    'flex cursor-default items-center gap-2 rounded-sm px-2 py-1.5 text-sm select-none data-active:bg-accent data-active:text-accent-foreground',
                    blocked && 'opacity-50',
                  )}
                >
                  <span
                    className={cn(
                      'flex size-4 shrink-0 items-center justify-center',
                      multiple && 'rounded-[4px] border border-input',
                      multiple && isSelected && 'border-primary bg-primary text-primary-foreground',
                    )}
                    aria-hidden="true"
                  >
                    {isSelected && <Check className="size-3.5" />}
                  </span>
                  {option.prefix}
                  <span className="min-w-0 flex-1 truncate">{option.label}</span>
                  {hint && (
                    <span className="shrink-0 text-xs text-muted-foreground tabular-nums">{hint}</span>
                  )}
                </div>
              </div>
            );
          })}
        </div>
        {footer && <div className="border-t px-3 py-2 text-xs text-muted-foreground">{footer}</div>}
      </PopoverContent>
    </Popover>
  );
}
