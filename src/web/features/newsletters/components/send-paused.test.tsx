import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { NewsletterStatusBadge } from './newsletter-status-badge';
import { SendPausedNotice } from './send-paused-alert';

/*
 * A send paused for the user (bounces, complaints, a suspension) used to look like any send in progress:
 * no "Paused", no reason, no way to resume it from the newsletter.
 */

const REASON = 'Paused automatically: 5 of its 25 emails bounced (20%; the limit is 5%).';

describe('a paused newsletter send', () => {
  it('says why, that nothing is lost, and offers Resume and Stop', () => {
    const html = renderToStaticMarkup(
      <SendPausedNotice reason={REASON} pending={false} onResume={() => {}} onStop={() => {}} />,
    );
    expect(html).toContain('data-testid="newsletter-paused-reason"');
    expect(html).toContain('This send was paused for you');
    expect(html).toContain(REASON);
    expect(html).toContain('Queued emails wait; nothing is lost.');
    expect(html).toMatch(/<button[^>]*data-testid="newsletter-resume"[^>]*>.*Resume/);
    expect(html).toMatch(/<button[^>]*data-testid="newsletter-stop"[^>]*>.*Stop sending/);
  });

  it('without a recorded reason still says it is paused; buttons wait while an action runs', () => {
    const html = renderToStaticMarkup(
      <SendPausedNotice reason={null} pending onResume={() => {}} onStop={() => {}} />,
    );
    expect(html).toContain('This send was paused for you');
    expect(html).toContain('Queued emails wait; nothing is lost.');
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*data-testid="newsletter-resume"/);
  });

  it('the status badge reads Paused for a paused send, and as before otherwise', () => {
    const paused = renderToStaticMarkup(<NewsletterStatusBadge status="sending" paused />);
    expect(paused).toContain('>Paused<');
    expect(paused).toContain('data-status="sending"');
    expect(paused).toContain('data-paused="true"');
    expect(renderToStaticMarkup(<NewsletterStatusBadge status="sending" />)).toContain('>Sending<');
    // A finished send's campaign is never shown paused.
    expect(renderToStaticMarkup(<NewsletterStatusBadge status="sent" paused />)).toContain('>Sent<');
  });
});
