import {
  formatBytes,
  IMPORT_DELIMITERS,
  IMPORT_ENCODINGS,
  IMPORT_FIELD_LABELS,
  IMPORT_MESSAGES,
  type ImportDelimiter,
  type ImportEncoding,
  type ImportReinspectInput,
  type ImportSummary,
  type ImportTarget,
  type ImportUploadResult,
} from '@shared/imports';
import { AlertCircle, ArrowRight, CheckCircle2, Loader2 } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { getErrorMessage } from '@/lib/errors';
import { formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useReinspectImport, useStartImport } from '../../api/imports';
import {
  applyChoice,
  type ChoiceOptionValue,
  type ColumnChoice,
  type ColumnChoices,
  choiceOptions,
  choicesFromMapping,
  choiceValue,
  DELIMITER_LABELS,
  describeMapped,
  ENCODING_LABELS,
  hasProblems,
  toMapping,
  validateChoices,
} from '../../lib/import-mapping';

const NO_HEADER = 'none';

function choiceLabel(choice: ColumnChoice | undefined): string | null {
  if (!choice || choice.kind === 'ignore') return null;
  if (choice.kind === 'custom') return `Custom: ${choice.name}`;
  return choice.field === 'full_name' ? 'Full name' : IMPORT_FIELD_LABELS[choice.field];
}

/** What the server detected, each with an override (a new look at the file). */
function FileSettings({
  inspection,
  onChange,
  busy,
}: {
  inspection: ImportUploadResult;
  onChange: (input: ImportReinspectInput) => void;
  busy: boolean;
}) {
  const id = useId();
  const headerLine = inspection.headerLine ?? (inspection.hasHeader ? 1 : null);
  const headerValue = headerLine === null ? NO_HEADER : String(headerLine);
  // The detected line is always offered, even when the file's first lines were stored before them.
  const lines = inspection.firstLines?.length
    ? inspection.firstLines
    : headerLine !== null
      ? [{ line: headerLine, text: inspection.columns.map((c) => c.header).join(', ') }]
      : [];
  return (
    <div
      className="grid gap-4 rounded-lg border bg-muted/30 p-4 sm:grid-cols-3"
      data-testid="import-file-settings"
    >
      <div className="grid gap-2">
        <Label htmlFor={`${id}-encoding`}>Encoding</Label>
        <Select
          value={inspection.encoding}
          onValueChange={(value) => onChange({ encoding: value as ImportEncoding })}
          disabled={busy}
        >
          <SelectTrigger id={`${id}-encoding`} className="w-full" data-testid="import-encoding">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {IMPORT_ENCODINGS.map((value) => (
              <SelectItem key={value} value={value}>
                {ENCODING_LABELS[value] ?? value}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-delimiter`}>Separator</Label>
        <Select
          value={inspection.delimiter}
          onValueChange={(value) => onChange({ delimiter: value as ImportDelimiter })}
          disabled={busy}
        >
          <SelectTrigger id={`${id}-delimiter`} className="w-full" data-testid="import-delimiter">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {IMPORT_DELIMITERS.map((value) => (
              <SelectItem key={value} value={value}>
                {DELIMITER_LABELS[value] ?? value}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <div className="grid content-start gap-2">
        <Label htmlFor={`${id}-header`}>Column names are on</Label>
        <Select
          value={headerValue}
          onValueChange={(value) =>
            onChange(value === NO_HEADER ? { hasHeader: false } : { headerLine: Number(value) })
          }
          disabled={busy}
        >
          <SelectTrigger id={`${id}-header`} className="w-full" data-testid="import-header-line">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={NO_HEADER}>No header row: every line is a contact</SelectItem>
            {lines.map((line) => (
              <SelectItem key={line.line} value={String(line.line)}>
                <span className="max-w-72 truncate">
                  Line {line.line}: {line.text || '(empty)'}
                </span>
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <p className="text-xs text-muted-foreground sm:col-span-3">
        Detected automatically. Change a setting if the preview below looks wrong (one column holding whole
        rows, or odd characters like Ã©).
      </p>
    </div>
  );
}

export function MappingStep({
  importId,
  target,
  inspection,
  onInspection,
  onStarted,
}: {
  importId: string;
  target: ImportTarget;
  inspection: ImportUploadResult;
  onInspection: (result: ImportUploadResult) => void;
  onStarted: (summary: ImportSummary) => void;
}) {
  const reinspect = useReinspectImport(importId);
  const start = useStartImport(importId);
  const options = useMemo(() => choiceOptions(target), [target]);
  const [choices, setChoices] = useState<ColumnChoices>(() =>
    choicesFromMapping(inspection.columns, inspection.suggestedMapping, target),
  );
  const [checkMx, setCheckMx] = useState(false);
  const capacity = inspection.capacity ?? null;
  const overLimit = capacity !== null && inspection.estimatedRows > capacity.available;
  const [importFirst, setImportFirst] = useState(true);
  const [showProblems, setShowProblems] = useState(false);

  // A new look at the file (other separator, encoding or header) brings new columns and a new suggestion.
  useEffect(() => {
    setChoices(choicesFromMapping(inspection.columns, inspection.suggestedMapping, target));
    setShowProblems(false);
  }, [inspection, target]);

  const problems = validateChoices(choices, target);
  const blocked = hasProblems(problems);
  const { mapped, total } = describeMapped(choices);
  const summary = inspection.import;

  const submit = () => {
    setShowProblems(true);
    if (blocked) return;
    start.mutate(
      {
        mapping: toMapping(choices),
        hasHeader: inspection.hasHeader,
        ...(target !== 'suppression'
          ? {
              options: {
                checkMx,
                ...(overLimit && importFirst && capacity.available > 0
                  ? { maxRows: capacity.available }
                  : {}),
              },
            }
          : {}),
      },
      { onSuccess: onStarted },
    );
  };

  return (
    <div className="grid gap-6" data-testid="import-mapping-step">
      <div className="flex flex-wrap items-center gap-x-6 gap-y-1 text-sm text-muted-foreground">
        <span>
          <span className="font-medium text-foreground">{summary.fileName}</span> ·{' '}
          {formatBytes(summary.sizeBytes)}
        </span>
        <span data-testid="import-estimated-rows">
          {inspection.estimatedRows < 1000 ? '' : 'about '}
          {formatNumber(inspection.estimatedRows)} {inspection.estimatedRows === 1 ? 'row' : 'rows'}
        </span>
        {summary.listName && <span>Into: {summary.listName}</span>}
        {(inspection.emptyRows ?? 0) > 0 && (
          <span data-testid="import-empty-rows">
            {formatNumber(inspection.emptyRows ?? 0)} empty {inspection.emptyRows === 1 ? 'row' : 'rows'}{' '}
            (skipped)
          </span>
        )}
      </div>

      {overLimit && capacity && (
        <Alert data-testid="import-over-limit">
          <AlertCircle aria-hidden="true" />
          <AlertTitle>More contacts than your plan allows</AlertTitle>
          <AlertDescription>
            <p>{IMPORT_MESSAGES.overLimit(inspection.estimatedRows, capacity.available)}</p>
            {capacity.available > 0 ? (
              <div className="mt-2 flex items-center gap-2">
                <Checkbox
                  id={`import-first-${importId}`}
                  checked={importFirst}
                  onCheckedChange={(value) => setImportFirst(value === true)}
                  data-testid="import-first-n"
                />
                <Label htmlFor={`import-first-${importId}`}>
                  {IMPORT_MESSAGES.importFirst(capacity.available)}
                </Label>
              </div>
            ) : (
              <p className="mt-1">Upgrade your plan or remove contacts before importing.</p>
            )}
          </AlertDescription>
        </Alert>
      )}

      <FileSettings
        inspection={inspection}
        busy={reinspect.isPending || start.isPending}
        onChange={(input) =>
          reinspect.mutate(input, {
            onSuccess: onInspection,
          })
        }
      />
      {reinspect.isPending && (
        <p className="flex items-center gap-2 text-sm text-muted-foreground" aria-live="polite">
          <Loader2 className="size-4 animate-spin" aria-hidden="true" />
          Reading the file again…
        </p>
      )}
      {reinspect.isError && (
        <Alert variant="destructive">
          <AlertCircle aria-hidden="true" />
          <AlertTitle>The file could not be read with these settings</AlertTitle>
          <AlertDescription>
            {getErrorMessage(reinspect.error, 'Please try other settings.')}
          </AlertDescription>
        </Alert>
      )}

      <section className="grid gap-3" aria-labelledby="mapping-heading">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h3 id="mapping-heading" className="font-semibold">
            What does each column hold?
          </h3>
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {mapped} of {total} columns will be imported
          </p>
        </div>
        <div className="overflow-hidden rounded-lg border">
          <Table data-testid="import-mapping-table">
            <TableHeader>
              <TableRow className="bg-muted/40 hover:bg-muted/40">
                <TableHead className="w-1/3">Column in your file</TableHead>
                <TableHead className="hidden md:table-cell">Sample values</TableHead>
                <TableHead className="w-64">Import as</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {inspection.columns.map((column) => {
                const choice = choices[column.index] ?? { kind: 'ignore' as const };
                const error =
                  showProblems || choice.kind === 'custom' ? problems.byColumn[column.index] : undefined;
                const selectId = `map-${importId}-${column.index}`;
                return (
                  <TableRow
                    key={column.index}
                    data-testid="mapping-row"
                    data-column={column.header}
                    className={cn(choice.kind === 'ignore' && 'text-muted-foreground')}
                  >
                    <TableCell className="max-w-56 align-top">
                      <label htmlFor={selectId} className="block truncate font-medium" title={column.header}>
                        {column.header}
                      </label>
                      <p className="truncate text-xs text-muted-foreground md:hidden">
                        {column.sample.slice(0, 2).join(', ') || 'empty'}
                      </p>
                    </TableCell>
                    <TableCell className="hidden max-w-72 align-top md:table-cell">
                      <p className="truncate text-sm" title={column.sample.join(' · ')}>
                        {column.sample.length ? column.sample.slice(0, 3).join(' · ') : <em>empty</em>}
                      </p>
                    </TableCell>
                    <TableCell className="align-top">
                      <div className="grid gap-2">
                        <Select
                          value={choiceValue(choice)}
                          onValueChange={(value) =>
                            setChoices((current) => applyChoice(current, column, value as ChoiceOptionValue))
                          }
                        >
                          <SelectTrigger id={selectId} className="w-full" data-testid="mapping-select">
                            <SelectValue />
                          </SelectTrigger>
                          <SelectContent>
                            {options.map((option) => (
                              <SelectItem key={option.value} value={option.value}>
                                {option.label}
                              </SelectItem>
                            ))}
                          </SelectContent>
                        </Select>
                        {choice.kind === 'custom' && (
                          <Input
                            value={choice.name}
                            onChange={(event) =>
                              setChoices((current) => ({
                                ...current,
                                [column.index]: { kind: 'custom', name: event.target.value.toLowerCase() },
                              }))
                            }
                            aria-label={`Custom field name for ${column.header}`}
                            aria-invalid={Boolean(error) || undefined}
                            className="font-mono text-xs"
                            maxLength={40}
                            data-testid="custom-field-name"
                          />
                        )}
                        {choice.kind === 'field' && choice.field === 'full_name' && (
                          <p className="text-xs text-muted-foreground">
                            Split at the last space into first and last name.
                          </p>
                        )}
                        {error && (
                          <p className="text-xs text-destructive" role="alert">
                            {error}
                          </p>
                        )}
                      </div>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </div>
      </section>

      {inspection.previewRows.length > 0 && (
        <section className="grid gap-3" aria-labelledby="preview-heading">
          <h3 id="preview-heading" className="font-semibold">
            Preview of the first {inspection.previewRows.length} rows
          </h3>
          <div className="overflow-x-auto rounded-lg border">
            <Table data-testid="import-preview">
              <TableHeader>
                <TableRow className="bg-muted/40 hover:bg-muted/40">
                  {inspection.columns.map((column) => {
                    const label = choiceLabel(choices[column.index]);
                    return (
                      <TableHead key={column.index} className="h-auto py-2 align-top">
                        <span className="block max-w-48 truncate">{column.header}</span>
                        {label ? (
                          <Badge variant="secondary" className="mt-1">
                            {label}
                          </Badge>
                        ) : (
                          <span className="mt-1 block text-xs font-normal text-muted-foreground">
                            Ignored
                          </span>
                        )}
                      </TableHead>
                    );
                  })}
                </TableRow>
              </TableHeader>
              <TableBody>
                {inspection.previewRows.map((row, rowIndex) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: preview rows are positional
                  <TableRow key={rowIndex}>
                    {inspection.columns.map((column) => (
                      <TableCell
                        key={column.index}
                        className={cn(
                          'max-w-48 truncate',
                          choices[column.index]?.kind === 'ignore' && 'text-muted-foreground/60',
                        )}
                        title={row[column.index] ?? ''}
                      >
                        {row[column.index] ?? ''}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        </section>
      )}

      {target !== 'suppression' && (
        <div className="flex items-start gap-3 rounded-lg border p-4">
          <Checkbox
            id={`check-mx-${importId}`}
            checked={checkMx}
            onCheckedChange={(value) => setCheckMx(value === true)}
            className="mt-0.5"
          />
          <div className="grid gap-1">
            <Label htmlFor={`check-mx-${importId}`}>Check that each email domain receives mail</Label>
            <p className="text-sm text-muted-foreground">
              Rejects addresses whose domain has no mail server. Slower on large files.
            </p>
          </div>
        </div>
      )}

      {showProblems && problems.general.length > 0 && (
        <Alert variant="destructive" data-testid="mapping-problems">
          <AlertCircle aria-hidden="true" />
          <AlertTitle>Check the mapping</AlertTitle>
          <AlertDescription>
            <ul className="list-disc pl-4">
              {problems.general.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          </AlertDescription>
        </Alert>
      )}
      {!blocked && (
        <p className="flex items-center gap-2 text-sm text-success" data-testid="mapping-ok">
          <CheckCircle2 className="size-4" aria-hidden="true" />
          One email column is mapped. Ready to import.
        </p>
      )}
      {start.isError && (
        <Alert variant="destructive" data-testid="start-error">
          <AlertCircle aria-hidden="true" />
          <AlertTitle>The import did not start</AlertTitle>
          <AlertDescription>{getErrorMessage(start.error, 'Please try again.')}</AlertDescription>
        </Alert>
      )}

      <div className="flex justify-end">
        <Button onClick={submit} disabled={start.isPending || reinspect.isPending} data-testid="start-import">
          {start.isPending ? 'Starting…' : 'Start import'}
          <ArrowRight aria-hidden="true" />
        </Button>
      </div>
    </div>
  );
}
