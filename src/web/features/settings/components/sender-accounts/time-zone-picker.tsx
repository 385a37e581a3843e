import { useMemo } from 'react';
import { MultiCombobox } from '@/components/multi-combobox';
import { timeZoneOptions } from '../../lib/time-zones';

/** A searchable list of time zones, the common African ones first. Clearing keeps the current zone. */
export function TimeZonePicker({
  value,
  onChange,
  disabled,
  ...aria
}: {
  value: string;
  onChange: (zone: string) => void;
  disabled?: boolean;
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}) {
  const options = useMemo(() => timeZoneOptions(value), [value]);
  return (
    <MultiCombobox
      options={options}
      value={[value]}
      onChange={(next) => {
        const zone = next[0];
        if (zone) onChange(zone);
      }}
      multiple={false}
      label="Time zone"
      placeholder="Choose a time zone"
      searchPlaceholder="Search a city or region…"
      emptyText="No time zone matches."
      disabled={disabled}
      className="w-full"
      testId="sender-time-zone"
      {...aria}
    />
  );
}
