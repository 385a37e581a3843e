import type { ImportTarget, ImportUploadResult } from '@shared/imports';
import { ApiRequestError } from '@/lib/api';

export interface UploadProgress {
  loaded: number;
  total: number;
  /** 0–100. */
  percent: number;
}

export interface UploadImportOptions {
  file: File;
  target: ImportTarget;
  listId?: string;
  newListName?: string;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

export class UploadAbortedError extends Error {
  constructor() {
    super('The upload was cancelled.');
    this.name = 'UploadAbortedError';
  }
}

function parseBody(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * POST /api/imports as multipart through XMLHttpRequest: fetch cannot report upload progress, and a
 * 50 MB file on a slow line needs a moving bar. Fails with the same ApiRequestError as apiRequest.
 */
export function uploadImport(options: UploadImportOptions): Promise<ImportUploadResult> {
  const { file, target, listId, newListName, onProgress, signal } = options;
  const form = new FormData();
  // Text fields first: the server reads them before it streams the file.
  form.append('target', target);
  if (listId) form.append('listId', listId);
  if (newListName) form.append('newListName', newListName);
  form.append('file', file, file.name);

  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new UploadAbortedError());
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/imports');
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      if (!event.lengthComputable) return;
      onProgress?.({
        loaded: event.loaded,
        total: event.total,
        percent: event.total > 0 ? Math.min(100, Math.round((event.loaded / event.total) * 100)) : 0,
      });
    };
    xhr.onload = () => {
      const text = xhr.responseText ?? '';
      if (xhr.status >= 200 && xhr.status < 300) {
        const body = parseBody(text);
        if (body) resolve(body as unknown as ImportUploadResult);
        else reject(new ApiRequestError(xhr.status, 'The server sent an unreadable answer.', '', undefined));
        return;
      }
      reject(new ApiRequestError(xhr.status, text, xhr.statusText, parseBody(text)));
    };
    xhr.onerror = () =>
      reject(
        new ApiRequestError(0, '', 'The upload failed. Check your connection and try again.', {
          message: 'The upload failed. Check your connection and try again.',
        }),
      );
    xhr.onabort = () => reject(new UploadAbortedError());
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
