import type { ImportStatus, ImportSummary, ImportTarget } from '@shared/imports';
import { formatNumber } from '@/lib/format';

export type WizardStep = 'upload' | 'map' | 'progress' | 'report';

export const WIZARD_STEPS: { id: WizardStep; label: string }[] = [
  { id: 'upload', label: 'Upload' },
  { id: 'map', label: 'Map columns' },
  { id: 'progress', label: 'Import' },
  { id: 'report', label: 'Report' },
];

/** Which step an import's status belongs to (a reload resumes where the import is). */
export function stepForStatus(status: ImportStatus | undefined): WizardStep {
  switch (status) {
    case undefined:
      return 'upload';
    case 'uploaded':
      return 'map';
    case 'queued':
    case 'running':
      return 'progress';
    default:
      return 'report';
  }
}

/** "12,000 of about 200,000 rows" while the file is being read; exact once the total is known. */
export function describeProgress(
  summary: Pick<ImportSummary, 'processedRows' | 'totalRows' | 'estimatedRows' | 'percent'>,
) {
  const total = summary.totalRows ?? summary.estimatedRows;
  const approximate = summary.totalRows === null;
  const percent = Math.max(0, Math.min(100, Math.round(summary.percent)));
  const processed = approximate
    ? Math.min(summary.processedRows, Math.max(total, summary.processedRows))
    : summary.processedRows;
  return {
    percent,
    text: `${formatNumber(processed)} of ${approximate ? 'about ' : ''}${formatNumber(Math.max(total, processed))} rows`,
  };
}

/** Rows that did not become contacts: repeats in the file, ones already there, and invalid ones. */
export function rejectedRows(
  summary: Pick<ImportSummary, 'duplicateRows' | 'existingRows' | 'invalidRows'>,
): number {
  return summary.duplicateRows + summary.existingRows + summary.invalidRows;
}

/** What "already there" means for each target. */
export function existingLabel(target: ImportTarget): string {
  switch (target) {
    case 'list':
      return 'Already in the list';
    case 'suppression':
      return 'Already suppressed';
    default:
      return 'Already in the directory';
  }
}

export function importedLabel(target: ImportTarget): string {
  return target === 'suppression' ? 'Suppressed' : 'Imported';
}

/** The place the import writes to, for "the list is unchanged" sentences. */
export function destinationNoun(target: ImportTarget, listName: string | null): string {
  if (target === 'suppression') return 'your suppression list';
  if (target === 'directory') return 'the directory';
  return listName ? `the list “${listName}”` : 'the list';
}

/** Failed or cancelled: nothing was written (the server commits only a completed import). */
export function unchangedMessage(summary: Pick<ImportSummary, 'target' | 'listName' | 'status'>): string {
  const noun = destinationNoun(summary.target, summary.listName);
  const head = summary.status === 'cancelled' ? 'The import was cancelled.' : 'The import failed.';
  return `${head} Nothing was imported: ${noun} is unchanged.`;
}
