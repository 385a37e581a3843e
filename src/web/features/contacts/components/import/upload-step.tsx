import { formatBytes, IMPORT_MESSAGES, type ImportTarget, type ImportUploadResult } from '@shared/imports';
import { AlertCircle, FileSpreadsheet, UploadCloud, X } from 'lucide-react';
import { type DragEvent, useEffect, useId, useRef, useState } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Progress } from '@/components/ui/progress';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { getErrorMessage, getErrorStatus } from '@/lib/errors';
import { formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useLists } from '../../api/lists';
import { UploadAbortedError, type UploadProgress, uploadImport } from '../../lib/upload';

/** The server's default limit (IMPORT_MAX_BYTES); an operator may set another, and the server's 413 says so. */
export const IMPORT_SIZE_LIMIT_TEXT = '50 MB';

/** "Lagos leads.csv" → "Lagos leads". */
export function listNameFromFile(fileName: string): string {
  return (
    fileName
      .replace(/\.(csv|txt|tsv)$/i, '')
      .replace(/[_]+/g, ' ')
      .trim()
      .slice(0, 100) || 'Imported contacts'
  );
}

function describeUploadError(error: unknown): string {
  const status = getErrorStatus(error);
  if (status === 413) return getErrorMessage(error, IMPORT_MESSAGES.tooLarge(IMPORT_SIZE_LIMIT_TEXT));
  return getErrorMessage(error, 'The file could not be uploaded. Please try again.');
}

export function UploadStep({
  target,
  initialListId,
  onUploaded,
}: {
  target: ImportTarget;
  initialListId: string | null;
  onUploaded: (result: ImportUploadResult) => void;
}) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const lists = useLists();
  const available = target === 'list' ? (lists.data?.lists ?? []) : [];
  const [file, setFile] = useState<File | null>(null);
  const [dragging, setDragging] = useState(false);
  const [mode, setMode] = useState<'existing' | 'new'>(initialListId ? 'existing' : 'new');
  const [listId, setListId] = useState(initialListId ?? '');
  const [newName, setNewName] = useState('');
  const [nameTouched, setNameTouched] = useState(false);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const uploading = progress !== null;

  useEffect(() => () => abortRef.current?.abort(), []);
  useEffect(() => {
    if (lists.isSuccess && available.length === 0) setMode('new');
  }, [lists.isSuccess, available.length]);

  const choose = (next: File | undefined | null) => {
    if (!next) return;
    setError(null);
    setFile(next);
    if (!nameTouched) setNewName(listNameFromFile(next.name));
  };

  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    if (uploading) return;
    const dropped = event.dataTransfer.files;
    if (dropped.length > 1) {
      setError('Drop one file at a time.');
      return;
    }
    choose(dropped[0]);
  };

  const start = async () => {
    setError(null);
    if (!file) {
      setError(IMPORT_MESSAGES.noFile);
      return;
    }
    if (target === 'list') {
      if (mode === 'existing' && !listId) {
        setError(IMPORT_MESSAGES.listRequired);
        return;
      }
      if (mode === 'new' && !newName.trim()) {
        setError(IMPORT_MESSAGES.listRequired);
        return;
      }
    }
    const controller = new AbortController();
    abortRef.current = controller;
    setProgress({ loaded: 0, total: file.size, percent: 0 });
    try {
      const result = await uploadImport({
        file,
        target,
        ...(target === 'list' && mode === 'existing' ? { listId } : {}),
        ...(target === 'list' && mode === 'new' ? { newListName: newName.trim() } : {}),
        onProgress: setProgress,
        signal: controller.signal,
      });
      onUploaded(result);
    } catch (failure) {
      setProgress(null);
      if (failure instanceof UploadAbortedError) return;
      setError(describeUploadError(failure));
    } finally {
      abortRef.current = null;
    }
  };

  return (
    <form
      className="grid gap-6"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void start();
      }}
      data-testid="import-upload-step"
    >
      {target === 'list' && (
        <fieldset className="grid gap-3" disabled={uploading}>
          <legend className="mb-1 text-sm font-medium">Import into</legend>
          <RadioGroup
            value={mode}
            onValueChange={(value) => setMode(value as 'existing' | 'new')}
            className="gap-3"
          >
            <div className="grid gap-2">
              <div className="flex items-center gap-2">
                <RadioGroupItem
                  value="existing"
                  id={`${id}-existing`}
                  disabled={available.length === 0}
                  data-testid="import-into-existing"
                />
                <Label htmlFor={`${id}-existing`} className="font-normal">
                  An existing list
                </Label>
              </div>
              {mode === 'existing' && (
                <Select value={listId} onValueChange={setListId}>
                  <SelectTrigger
                    className="ml-6 w-[calc(100%-1.5rem)] sm:w-96"
                    aria-label="List"
                    data-testid="import-list-select"
                  >
                    <SelectValue placeholder="Choose a list" />
                  </SelectTrigger>
                  <SelectContent>
                    {available.map((list) => (
                      <SelectItem key={list.id} value={list.id}>
                        {list.name}{' '}
                        <span className="text-muted-foreground">({formatNumber(list.contactCount)})</span>
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            </div>
            <div className="grid gap-2">
              <div className="flex items-center gap-2">
                <RadioGroupItem value="new" id={`${id}-new`} data-testid="import-into-new" />
                <Label htmlFor={`${id}-new`} className="font-normal">
                  A new list
                </Label>
              </div>
              {mode === 'new' && (
                <Input
                  className="ml-6 w-[calc(100%-1.5rem)] sm:w-96"
                  value={newName}
                  onChange={(event) => {
                    setNewName(event.target.value);
                    setNameTouched(true);
                  }}
                  placeholder="List name"
                  aria-label="New list name"
                  maxLength={100}
                  data-testid="import-new-list-name"
                />
              )}
            </div>
          </RadioGroup>
        </fieldset>
      )}

      <div className="grid gap-2">
        <span className="text-sm font-medium" id={`${id}-file-label`}>
          CSV file
        </span>
        {/* biome-ignore lint/a11y/noStaticElementInteractions: the drop target; the button inside is the keyboard path */}
        <div
          onDragOver={(event) => {
            event.preventDefault();
            if (!uploading) setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          className={cn(
            'flex flex-col items-center gap-3 rounded-xl border-2 border-dashed px-6 py-10 text-center transition-colors',
            dragging ? 'border-primary bg-secondary' : 'border-input bg-muted/30',
          )}
          data-testid="import-dropzone"
        >
          {file ? (
            <div className="flex w-full max-w-md items-center gap-3 rounded-lg border bg-background px-4 py-3 text-left">
              <FileSpreadsheet className="size-8 shrink-0 text-primary" aria-hidden="true" />
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium" data-testid="import-file-name">
                  {file.name}
                </p>
                <p className="text-sm text-muted-foreground">{formatBytes(file.size)}</p>
              </div>
              {!uploading && (
                <Button
                  type="button"
                  variant="ghost"
                  size="icon-sm"
                  onClick={() => {
                    setFile(null);
                    if (inputRef.current) inputRef.current.value = '';
                  }}
                  aria-label="Remove the file"
                >
                  <X aria-hidden="true" />
                </Button>
              )}
            </div>
          ) : (
            <>
              <UploadCloud className="size-10 text-muted-foreground" aria-hidden="true" />
              <div>
                <p className="font-medium">Drag and drop your CSV file here</p>
                <p className="text-sm text-muted-foreground">
                  One contact per row with an email column. Up to {IMPORT_SIZE_LIMIT_TEXT}.
                </p>
              </div>
            </>
          )}
          <input
            ref={inputRef}
            type="file"
            accept=".csv,.txt,.tsv,text/csv,text/plain,text/tab-separated-values"
            className="sr-only"
            aria-labelledby={`${id}-file-label`}
            onChange={(event) => choose(event.target.files?.[0])}
            disabled={uploading}
            data-testid="import-file-input"
            tabIndex={-1}
          />
          <Button
            type="button"
            variant="outline"
            onClick={() => inputRef.current?.click()}
            disabled={uploading}
          >
            {file ? 'Choose another file' : 'Choose a file'}
          </Button>
        </div>
        <p className="text-xs text-muted-foreground">
          Comma, semicolon, tab or pipe separated; UTF-8, UTF-16 or Windows-1252 (Excel). Files up to{' '}
          {IMPORT_SIZE_LIMIT_TEXT} (about half a million rows). Formulas are stored as text and never run.
        </p>
      </div>

      {progress && (
        <div className="grid gap-2" aria-live="polite" data-testid="upload-progress">
          <div className="flex justify-between text-sm">
            <span>{progress.percent < 100 ? 'Uploading…' : 'Reading the file…'}</span>
            <span className="text-muted-foreground tabular-nums">
              {formatBytes(progress.loaded)} of {formatBytes(progress.total)} · {progress.percent}%
            </span>
          </div>
          <Progress value={progress.percent} aria-label="Upload progress" />
        </div>
      )}

      {error && (
        <Alert variant="destructive" data-testid="upload-error">
          <AlertCircle aria-hidden="true" />
          <AlertTitle>The file was not uploaded</AlertTitle>
          <AlertDescription>{error}</AlertDescription>
        </Alert>
      )}

      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {uploading && (
          <Button type="button" variant="ghost" onClick={() => abortRef.current?.abort()}>
            Cancel upload
          </Button>
        )}
        <Button type="submit" disabled={uploading || !file} data-testid="upload-submit">
          <UploadCloud aria-hidden="true" />
          {uploading ? 'Uploading…' : 'Upload and continue'}
        </Button>
      </div>
    </form>
  );
}
