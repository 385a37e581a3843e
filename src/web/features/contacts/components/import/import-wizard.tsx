import type { ImportTarget, ImportUploadResult } from '@shared/imports';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Check } from 'lucide-react';
import { type ReactNode, useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';
import { importsQueryKey, isFinished, useImport, useImportPreview } from '../../api/imports';
import { listsQueryKey } from '../../api/lists';
import { stepForStatus, WIZARD_STEPS, type WizardStep } from '../../lib/import-progress';
import { MappingStep } from './mapping-step';
import { ProgressStep } from './progress-step';
import { ReportStep } from './report-step';
import { UploadStep } from './upload-step';

const TITLES: Record<
  ImportTarget,
  { title: string; description: string; back: { to: string; label: string } }
> = {
  list: {
    title: 'Import contacts from a CSV file',
    description: 'Upload a file, tell us what each column holds, and follow the import to its report.',
    back: { to: '/lead-discovery?tab=lists', label: 'My lists' },
  },
  suppression: {
    title: 'Import addresses to suppress',
    description: 'Every address in the file is added to your suppression list and never emailed.',
    back: { to: '/lead-discovery?tab=suppression', label: 'Suppression list' },
  },
  directory: {
    title: 'Bulk import into the directory',
    description:
      'Add businesses to the shared directory. Country and category columns are required for each row.',
    back: { to: '/admin/contact-database', label: 'Contact database' },
  },
};

function StepIndicator({ current, complete }: { current: WizardStep; complete: boolean }) {
  // A completed import has every step done, the report included.
  const currentIndex = complete ? WIZARD_STEPS.length : WIZARD_STEPS.findIndex((step) => step.id === current);
  return (
    <ol className="flex flex-wrap items-center gap-x-2 gap-y-2 text-sm" aria-label="Import steps">
      {WIZARD_STEPS.map((step, index) => {
        const done = index < currentIndex;
        const active = index === currentIndex || (complete && index === WIZARD_STEPS.length - 1);
        return (
          <li key={step.id} className="flex items-center gap-2" aria-current={active ? 'step' : undefined}>
            <span
              className={cn(
                'flex size-6 items-center justify-center rounded-full border text-xs font-semibold',
                done && 'border-primary bg-primary text-primary-foreground',
                active && !done && 'border-primary text-primary',
                !done && !active && 'text-muted-foreground',
              )}
              aria-hidden="true"
            >
              {done ? <Check className="size-3.5" /> : index + 1}
            </span>
            <span className={cn(active ? 'font-medium' : 'text-muted-foreground')}>
              {step.label}
              {done && <span className="sr-only"> (done)</span>}
            </span>
            {index < WIZARD_STEPS.length - 1 && (
              <span className="mx-1 h-px w-6 bg-border sm:w-10" aria-hidden="true" />
            )}
          </li>
        );
      })}
    </ol>
  );
}

/**
 * The CSV import, from upload to report. The import's id sits in the URL, so a reload (or coming back
 * later to a 200,000-row import) resumes at its current step.
 */
export function ImportWizard({ target }: { target: ImportTarget }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const importId = searchParams.get('importId');
  const listId = searchParams.get('listId');
  const queryClient = useQueryClient();
  const summary = useImport(importId);
  const step = importId ? stepForStatus(summary.data?.status) : 'upload';
  const preview = useImportPreview(importId, step === 'map');
  const copy = TITLES[target];

  // A finished list import changed counts and members of the list.
  const finished = isFinished(summary.data);
  const refreshed = useRef<string | null>(null);
  useEffect(() => {
    if (finished && importId && refreshed.current !== importId) {
      refreshed.current = importId;
      void queryClient.invalidateQueries({ queryKey: listsQueryKey });
    }
  }, [finished, importId, queryClient]);

  const setImportId = (id: string | null) => {
    const next = new URLSearchParams(searchParams);
    if (id) next.set('importId', id);
    else next.delete('importId');
    setSearchParams(next, { replace: false });
  };

  const onUploaded = (result: ImportUploadResult) => {
    queryClient.setQueryData([...importsQueryKey, result.importId], result.import);
    queryClient.setQueryData([...importsQueryKey, result.importId, 'preview'], result);
    if (target === 'list' && result.import.listId)
      void queryClient.invalidateQueries({ queryKey: listsQueryKey });
    setImportId(result.importId);
  };

  let body: ReactNode;
  if (importId && summary.isError) {
    body = (
      <QueryError
        title="This import could not be loaded"
        error={summary.error}
        onRetry={() => summary.refetch()}
      />
    );
  } else if (importId && !summary.data) {
    body = <Skeleton className="h-64 w-full" />;
  } else if (step === 'upload') {
    body = <UploadStep target={target} initialListId={listId} onUploaded={onUploaded} />;
  } else if (step === 'map') {
    body = preview.isError ? (
      <QueryError
        title="The file preview could not be loaded"
        error={preview.error}
        onRetry={() => preview.refetch()}
      />
    ) : preview.data && importId ? (
      <MappingStep
        importId={importId}
        target={summary.data?.target ?? target}
        inspection={preview.data}
        onInspection={(result) => queryClient.setQueryData([...importsQueryKey, importId, 'preview'], result)}
        onStarted={(started) => queryClient.setQueryData([...importsQueryKey, importId], started)}
      />
    ) : (
      <Skeleton className="h-64 w-full" />
    );
  } else if (step === 'progress' && summary.data) {
    body = <ProgressStep summary={summary.data} />;
  } else if (summary.data) {
    body = <ReportStep summary={summary.data} onRestart={() => setImportId(null)} />;
  }

  return (
    <div className="mx-auto w-full max-w-5xl space-y-6" data-testid="import-wizard" data-step={step}>
      <div className="space-y-3">
        <Button variant="ghost" size="sm" className="-ml-2" asChild>
          <Link
            to={
              summary.data?.listId && target === 'list'
                ? `/lead-discovery/lists/${summary.data.listId}`
                : copy.back.to
            }
          >
            <ArrowLeft aria-hidden="true" />
            {summary.data?.listName && target === 'list' ? summary.data.listName : copy.back.label}
          </Link>
        </Button>
        <header className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">{copy.title}</h1>
          <p className="text-muted-foreground">{copy.description}</p>
        </header>
      </div>
      <Card>
        <CardHeader className="gap-4">
          <StepIndicator current={step} complete={summary.data?.status === 'completed'} />
          <div>
            <CardTitle>
              <h2>{WIZARD_STEPS.find((item) => item.id === step)?.label}</h2>
            </CardTitle>
            {step === 'upload' && (
              <CardDescription>Choose where the contacts go and pick the file.</CardDescription>
            )}
          </div>
        </CardHeader>
        <CardContent>{body}</CardContent>
      </Card>
    </div>
  );
}
