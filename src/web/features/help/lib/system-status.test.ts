import { describe, expect, it } from 'vitest';
import { overallState, readHealth, statusComponents } from './system-status';

describe('readHealth', () => {
  it('reads the health body, whether it came with 200 or 503', () => {
    expect(readHealth({ status: 'ok', database: 'ok', queue: 'ok' })).toEqual({
      status: 'ok',
      database: 'ok',
      queue: 'ok',
    });
    expect(readHealth({ status: 'failing', database: 'ok', queue: 'failing' })?.queue).toBe('failing');
  });

  it.each([null, '<html>Bad gateway</html>', { message: 'Internal error' }, { status: 'ok' }])(
    'refuses %j',
    (body) => {
      expect(readHealth(body)).toBeNull();
    },
  );
});

describe('statusComponents', () => {
  const states = (health: Parameters<typeof statusComponents>[0]) =>
    statusComponents(health).map((c) => [c.id, c.state]);

  it('shows everything operational when every check passes', () => {
    const components = statusComponents({ status: 'ok', database: 'ok', queue: 'ok' });
    expect(components.map((c) => [c.id, c.state])).toEqual([
      ['web', 'operational'],
      ['database', 'operational'],
      ['queue', 'operational'],
    ]);
    expect(overallState(components)).toBe('operational');
  });

  it('marks only the failing check degraded', () => {
    expect(states({ status: 'failing', database: 'failing', queue: 'ok' })).toEqual([
      ['web', 'operational'],
      ['database', 'degraded'],
      ['queue', 'operational'],
    ]);
    expect(overallState(statusComponents({ status: 'failing', database: 'ok', queue: 'failing' }))).toBe(
      'degraded',
    );
  });

  it('marks everything degraded when the server gave no usable answer', () => {
    const components = statusComponents(null);
    expect(components.every((c) => c.state === 'degraded')).toBe(true);
    expect(components[1]!.detail).toMatch(/could not be checked/i);
    expect(overallState(components)).toBe('degraded');
  });
});
