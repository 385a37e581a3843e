import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { parseApiError } from '@/lib/errors';

/**
 * Puts the field problems of a 400 (`errors: [{path, message}]`) on the matching form fields. Returns true
 * when at least one landed, so the caller can skip a generic toast.
 */
export function applyServerFieldErrors<T extends FieldValues>(
  error: unknown,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
): boolean {
  const problems = parseApiError(error).data?.errors ?? [];
  let applied = false;
  for (const problem of problems) {
    const field = fields.find((name) => name === problem.path || problem.path.endsWith(`.${name}`));
    if (field) {
      setError(field, { type: 'server', message: problem.message });
      applied = true;
    }
  }
  return applied;
}
