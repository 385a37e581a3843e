import { type Health, healthSchema } from '@shared/health';

/*
 * The /status page's reading of GET /api/health (200 when every check passes, 503 with the same body when
 * one fails). An answer we cannot read, or no answer at all, means the web app itself is in trouble and
 * the other two could not be checked.
 */

export type ComponentState = 'operational' | 'degraded';

export interface StatusComponent {
  id: 'web' | 'database' | 'queue';
  name: string;
  description: string;
  state: ComponentState;
  detail: string;
}

/** The health body when it is one, else null (a proxy's error page, a network failure…). */
export function readHealth(body: unknown): Health | null {
  const parsed = healthSchema.safeParse(body);
  return parsed.success ? parsed.data : null;
}

export function statusComponents(health: Health | null): StatusComponent[] {
  const unchecked = 'Could not be checked because the web app did not answer.';
  return [
    {
      id: 'web',
      name: 'Web app',
      description: 'Sign-in, the dashboard and the API',
      state: health ? 'operational' : 'degraded',
      detail: health ? 'Answering requests.' : 'The status check got no usable answer.',
    },
    {
      id: 'database',
      name: 'Database',
      description: 'Your contacts, campaigns and results',
      state: health?.database === 'ok' ? 'operational' : 'degraded',
      detail: !health ? unchecked : health.database === 'ok' ? 'Reading and writing.' : 'Not answering.',
    },
    {
      id: 'queue',
      name: 'Job queue',
      description: 'Sending, imports, replies and scheduled work',
      state: health?.queue === 'ok' ? 'operational' : 'degraded',
      detail: !health ? unchecked : health.queue === 'ok' ? 'Taking jobs.' : 'Not answering.',
    },
  ];
}

export function overallState(components: StatusComponent[]): ComponentState {
  return components.every((c) => c.state === 'operational') ? 'operational' : 'degraded';
}
