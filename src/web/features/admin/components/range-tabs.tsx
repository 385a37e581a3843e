import { useSearchParams } from 'react-router';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';

/** The range in the address (?range=7d), so a reload or a shared link keeps it; unknown values fall back. */
export function useRangeParam<T extends string>(allowed: readonly T[], fallback: T): [T, (range: T) => void] {
  const [params, setParams] = useSearchParams();
  const value = params.get('range');
  const range = allowed.includes(value as T) ? (value as T) : fallback;
  const setRange = (next: T) =>
    setParams(
      (current) => {
        const copy = new URLSearchParams(current);
        copy.set('range', next);
        return copy;
      },
      { replace: true },
    );
  return [range, setRange];
}

export function RangeTabs<T extends string>({
  value,
  options,
  onChange,
  label,
}: {
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
  label: string;
}) {
  return (
    <Tabs value={value} onValueChange={(next) => onChange(next as T)}>
      <TabsList aria-label={label} data-testid="range-tabs">
        {options.map((option) => (
          <TabsTrigger key={option.value} value={option.value} data-testid={`range-${option.value}`}>
            {option.label}
          </TabsTrigger>
        ))}
      </TabsList>
    </Tabs>
  );
}
