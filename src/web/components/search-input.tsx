import { Loader2, Search } from 'lucide-react';
import { type ComponentProps, useId } from 'react';

import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';

type SearchInputProps = Omit<ComponentProps<typeof Input>, 'type' | 'value' | 'onChange'> & {
  value: string;
  onChange: (value: string) => void;
  /** A visually hidden label tied to the field; without it, name the field with `aria-label`. */
  label?: string;
  /** Shows a spinner at the right edge while results for the typed text are on their way. */
  busy?: boolean;
  /** Names the spinner for screen readers; without it the spinner is hidden from them. */
  busyLabel?: string;
  /** Classes for the wrapper (width, flex); the field itself keeps the padding for the magnifier. */
  className?: string;
};

/** A search field with a magnifier icon, an optional visually hidden label and an optional busy spinner. */
export function SearchInput({
  id,
  value,
  onChange,
  label,
  busy = false,
  busyLabel,
  className,
  ...props
}: SearchInputProps) {
  const generatedId = useId();
  const inputId = id ?? (label ? generatedId : undefined);
  return (
    <div className={cn('relative', className)}>
      {label && (
        <Label htmlFor={inputId} className="sr-only">
          {label}
        </Label>
      )}
      <Search
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
        aria-hidden="true"
      />
      <Input
        id={inputId}
        type="search"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className="pl-9"
        {...props}
      />
      {busy && (
        <Loader2
          className="absolute top-1/2 right-3 size-4 -translate-y-1/2 animate-spin text-muted-foreground"
          {...(busyLabel ? { 'aria-label': busyLabel } : { 'aria-hidden': true })}
        />
      )}
    </div>
  );
}
