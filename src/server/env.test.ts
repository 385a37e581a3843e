import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from './env';
import { resolveSecrets } from './lib/secrets';

const PRODUCTION = {
  NODE_ENV: 'production',
  SESSION_SECRET: 's'.repeat(32),
  ENCRYPTION_KEY: 'ab'.repeat(32),
  APP_URL: 'https://tambari.example',
  DATABASE_URL: 'postgres://tambari@db/tambari',
  PAYSTACK_SECRET_KEY: 'sk_live_example',
  PAYSTACK_PUBLIC_KEY: 'pk_live_example',
};

function errorOf(source: Record<string, string | undefined>): EnvError {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return error as EnvError;
  }
  throw new Error('parseEnv accepted an invalid environment');
}

describe('parseEnv', () => {
  it('takes an EHLO host name for sender connections and refuses one that is not a host name', () => {
    expect(parseEnv({}).SMTP_EHLO_NAME).toBeUndefined();
    expect(parseEnv({ SMTP_EHLO_NAME: 'Mail.Tambari.example' }).SMTP_EHLO_NAME).toBe('mail.tambari.example');
    expect(parseEnv({ SMTP_EHLO_NAME: '[192.0.2.7]' }).SMTP_EHLO_NAME).toBe('[192.0.2.7]');
    for (const bad of [
      'localhost',
      'mail tambari.example',
      'mail.tambari.example\r\nRCPT TO:<x@y.z>',
      'ünï.example',
    ]) {
      expect(errorOf({ SMTP_EHLO_NAME: bad }).message, bad).toContain('SMTP_EHLO_NAME');
    }
  });

  it('fills in development defaults', () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      NODE_ENV: 'development',
      HOST: '0.0.0.0',
      PORT: 3000,
      APP_URL: 'http://localhost:3000',
      DATA_DIR: './data',
      LOG_LEVEL: 'info',
      DEV_MAILBOX_PORT: 2525,
      AUTH_RATE_LIMIT_MAX: 20,
      AUTH_RATE_LIMIT_WINDOW_MINUTES: 15,
      BODY_LIMIT_BYTES: 256 * 1024,
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SMTP_URL).toBeUndefined();
  });

  it('derives APP_URL from PORT and drops a trailing slash', () => {
    expect(parseEnv({ PORT: '8080' }).APP_URL).toBe('http://localhost:8080');
    expect(parseEnv({ APP_URL: 'https://tambari.example/' }).APP_URL).toBe('https://tambari.example');
  });

  it('treats blank optional values as unset', () => {
    const env = parseEnv({ DATABASE_URL: '  ', SMTP_URL: '', SESSION_SECRET: ' ' });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SMTP_URL).toBeUndefined();
    expect(env.SESSION_SECRET).toBeUndefined();
  });

  it('accepts a complete production environment', () => {
    const env = parseEnv(PRODUCTION);
    expect(env).toMatchObject({ NODE_ENV: 'production', APP_URL: 'https://tambari.example' });
  });

  it('refuses production without its secrets, URL and database, naming each', () => {
    const error = errorOf({ NODE_ENV: 'production' });
    for (const key of [
      'SESSION_SECRET',
      'ENCRYPTION_KEY',
      'APP_URL',
      'DATABASE_URL',
      'PAYSTACK_SECRET_KEY',
      'PAYSTACK_PUBLIC_KEY',
    ]) {
      expect(error.message).toContain(`${key}: is required in production`);
    }
  });

  it.each(['SESSION_SECRET', 'ENCRYPTION_KEY', 'APP_URL', 'DATABASE_URL'])(
    'refuses production without %s alone',
    (key) => {
      const error = errorOf({ ...PRODUCTION, [key]: undefined });
      expect(error.message).toContain(key);
      const others = ['SESSION_SECRET', 'ENCRYPTION_KEY', 'APP_URL', 'DATABASE_URL'].filter((k) => k !== key);
      for (const other of others) expect(error.message).not.toContain(other);
    },
  );

  it.each(['abc', '-1', '70000', '80.5'])('refuses PORT=%s', (port) => {
    expect(errorOf({ PORT: port }).message).toContain('PORT');
  });

  it('refuses a short session secret and a malformed encryption key', () => {
    expect(errorOf({ SESSION_SECRET: 'too-short' }).message).toContain(
      'SESSION_SECRET: must be at least 32 characters',
    );
    expect(errorOf({ ENCRYPTION_KEY: 'xyz' }).message).toContain('ENCRYPTION_KEY: must be 64 hex characters');
    expect(errorOf({ ENCRYPTION_KEYS_PREVIOUS: `${'cd'.repeat(32)},short` }).message).toContain(
      'ENCRYPTION_KEYS_PREVIOUS: must be 64-hex-character keys separated by commas',
    );
  });

  it('takes the keys rotated out, and resolves them for opening old secrets', () => {
    const previous = ['cd'.repeat(32), 'ef'.repeat(32)];
    const env = parseEnv({ ENCRYPTION_KEYS_PREVIOUS: ` ${previous[0]} , ${previous[1]}` });
    const secrets = resolveSecrets({
      ...env,
      SESSION_SECRET: 's'.repeat(32),
      ENCRYPTION_KEY: 'ab'.repeat(32),
    });
    expect(secrets.previousEncryptionKeys?.map((key) => key.toString('hex'))).toEqual(previous);
  });

  it('refuses unknown NODE_ENV and LOG_LEVEL values', () => {
    expect(errorOf({ NODE_ENV: 'staging' }).message).toContain('NODE_ENV');
    expect(errorOf({ LOG_LEVEL: 'loud' }).message).toContain('LOG_LEVEL');
  });
});
