import { escapeHtml } from '@server/lib/html';
import { publicPage } from '../tracking/tracking.service';
import type { PublicArchive } from './newsletter-archive.service';

/* The archive's public page: server-rendered, no script and no tracking; meant to be found. */

const DATE = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

export function renderArchivePage(archive: PublicArchive): string {
  const title = `Newsletters from ${archive.senderName}`;
  const items = archive.issues
    .map(
      (issue) =>
        `<li><a href="${escapeHtml(issue.webPath)}">${escapeHtml(issue.subject || 'Untitled')}</a><time datetime="${issue.sentAt.toISOString()}">${escapeHtml(DATE.format(issue.sentAt))}</time></li>`,
    )
    .join('\n');
  return publicPage(
    title,
    `<h1>${escapeHtml(title)}</h1>
${archive.issues.length ? `<ul class="issues">\n${items}\n</ul>` : '<p>No newsletters here yet.</p>'}`,
    { indexable: true },
  );
}

export const ARCHIVE_NOT_FOUND_PAGE = publicPage(
  'Archive not found',
  '<h1>This archive is not available</h1>\n<p>The link may be mistyped, or the sender has turned their archive off.</p>',
);
