import type { SenderPreset } from '@shared/sending';
import { FlaskConical, Info, Server } from 'lucide-react';
import { useId } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';
import { CUSTOM_PRESET_ID, isDevMailboxPreset } from '../../lib/sender-form';

/**
 * Step one of the form: which provider the mailbox is with. Picking one fills the server settings and
 * shows that provider's advice (app passwords and the like).
 */
export function PresetPicker({
  presets,
  loading,
  value,
  onChange,
}: {
  presets: readonly SenderPreset[];
  loading: boolean;
  value: string;
  onChange: (preset: SenderPreset) => void;
}) {
  const id = useId();
  const selected = presets.find((preset) => preset.id === value);
  return (
    <fieldset className="space-y-3" data-testid="sender-preset-picker">
      <legend className="mb-3 text-sm font-medium">Where is this mailbox hosted?</legend>
      {loading ? (
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-3" role="status" aria-label="Loading providers">
          {[0, 1, 2, 3, 4, 5].map((key) => (
            <Skeleton key={key} className="h-12" />
          ))}
        </div>
      ) : (
        <RadioGroup
          value={value}
          onValueChange={(next) => {
            const preset = presets.find((candidate) => candidate.id === next);
            if (preset) onChange(preset);
          }}
          className="grid grid-cols-2 gap-2 sm:grid-cols-3"
          aria-label="Mail provider"
        >
          {presets.map((preset) => {
            const checked = preset.id === value;
            const isTest = isDevMailboxPreset(preset);
            return (
              <label
                key={preset.id}
                htmlFor={`${id}-${preset.id}`}
                className={cn(
                  'flex min-h-12 cursor-pointer items-center gap-2.5 rounded-md border px-3 py-2 text-sm transition-colors hover:bg-accent/60 has-focus-visible:ring-[3px] has-focus-visible:ring-ring/50',
                  checked && 'border-primary bg-primary/5',
                )}
                data-testid={`sender-preset-${preset.id}`}
              >
                <RadioGroupItem value={preset.id} id={`${id}-${preset.id}`} />
                {isTest ? (
                  <FlaskConical className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                ) : preset.id === CUSTOM_PRESET_ID ? (
                  <Server className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                ) : null}
                <span className="min-w-0 flex-1 leading-tight font-medium">{preset.name}</span>
                {isTest && (
                  <Badge variant="secondary" className="hidden shrink-0 sm:inline-flex">
                    Test
                  </Badge>
                )}
              </label>
            );
          })}
        </RadioGroup>
      )}
      {selected?.help && (
        <Alert data-testid="sender-preset-help">
          <Info aria-hidden="true" />
          <AlertTitle>{selected.name}</AlertTitle>
          <AlertDescription className="whitespace-pre-line">{selected.help}</AlertDescription>
        </Alert>
      )}
    </fieldset>
  );
}
