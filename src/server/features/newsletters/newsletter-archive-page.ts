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
  // Relative links keep the page's own address (its slug) and only change the page key.
  const links = [
    archive.newer ? `<a href="?newer=${encodeURIComponent(archive.newer)}" rel="prev">← Newer</a>` : '',
    archive.older ? `<a href="?older=${encodeURIComponent(archive.older)}" rel="next">Older →</a>` : '',
  ].filter(Boolean);
  const empty = archive.paged
    ? '<p>No newsletters on this page. <a href="?">See the newest</a>.</p>'
    : '<p>No newsletters here yet.</p>';
  return publicPage(
    title,
    `<h1>${escapeHtml(title)}</h1>
${archive.issues.length ? `<ul class="issues">\n${items}\n</ul>` : empty}${links.length ? `\n<nav class="pages" aria-label="More newsletters">${links.join(' ')}</nav>` : ''}`,
    { indexable: true },
  );
}

export const ARCHIVE_NOT_FOUND_PAGE = publicPage(
  'Archive not found',
  '<h1>This archive is not available</h1>\n<p>The link may be mistyped, or the sender has turned their archive off.</p>',
);

export const ARCHIVE_BAD_PAGE_PAGE = publicPage(
  'Page not found',
  '<h1>This page of the archive is not available</h1>\n<p>The page link is not valid any more. <a href="?">See the newest newsletters</a>.</p>',
);
