import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

/** The choice that stands for "no filter"; no option of a filter may take this value. */
const ALL = 'all';

/**
 * A list filter: "All …" first (no filter, `undefined`), then one item per option. `className` sizes the
 * trigger.
 */
export function FilterSelect<T extends string>({
  value,
  onChange,
  allLabel,
  options,
  optionLabel,
  className,
  'aria-label': ariaLabel,
  'data-testid': testId,
}: {
  /** The filter now; any string, as filters read back from the address are not checked against `options`. */
  value: string | undefined;
  onChange: (value: T | undefined) => void;
  allLabel: string;
  options: readonly T[];
  optionLabel: (value: T) => string;
  className?: string;
  'aria-label': string;
  'data-testid'?: string;
}) {
  return (
    <Select value={value ?? ALL} onValueChange={(next) => onChange(next === ALL ? undefined : (next as T))}>
      <SelectTrigger className={className} aria-label={ariaLabel} data-testid={testId}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={ALL}>{allLabel}</SelectItem>
        {options.map((option) => (
          <SelectItem key={option} value={option}>
            {optionLabel(option)}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
