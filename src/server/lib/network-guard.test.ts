import { describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { type HostLookup, isAllowedAddress, NETWORK_GUARD_MESSAGES, resolveMailHost } from './network-guard';

const answers =
  (table: Record<string, string[]>): HostLookup =>
  async (host) => {
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('isAllowedAddress', () => {
  const never = [
    '169.254.169.254', // cloud metadata
    '169.254.1.1',
    '0.0.0.0',
    '100.64.0.1', // carrier-grade NAT
    '255.255.255.255',
    '224.0.0.1',
    '192.0.2.10', // documentation (reserved)
    'fe80::1',
    '::',
    'fd00:ec2::254', // AWS IPv6 metadata
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    '64:ff9b::a9fe:a9fe', // NAT64 of the metadata address
    '2002:a9fe:a9fe::1', // 6to4 of it
  ];

  it.each(['public', 'loopback', 'private'] as const)(
    'never allows link-local, metadata or special addresses (%s)',
    (network) => {
      for (const address of never) expect(isAllowedAddress(address, network), address).toBe(false);
    },
  );

  it('allows public unicast addresses everywhere', () => {
    for (const network of ['public', 'loopback', 'private'] as const) {
      expect(isAllowedAddress('8.8.8.8', network)).toBe(true);
      expect(isAllowedAddress('2606:4700::1111', network)).toBe(true);
    }
  });

  it('allows loopback only on loopback and private networks', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      expect(isAllowedAddress(address, 'public'), address).toBe(false);
      expect(isAllowedAddress(address, 'loopback'), address).toBe(true);
      expect(isAllowedAddress(address, 'private'), address).toBe(true);
    }
  });

  it('allows RFC 1918 and unique-local addresses only on private networks', () => {
    for (const address of ['10.0.0.1', '172.16.5.4', '192.168.1.1', 'fd12:3456::1', '::ffff:10.0.0.1']) {
      expect(isAllowedAddress(address, 'public'), address).toBe(false);
      expect(isAllowedAddress(address, 'loopback'), address).toBe(false);
      expect(isAllowedAddress(address, 'private'), address).toBe(true);
    }
  });

  it('refuses anything that is not a literal address', () => {
    expect(isAllowedAddress('localhost', 'private')).toBe(false);
    expect(isAllowedAddress('2130706433', 'private')).toBe(false);
  });
});

describe('resolveMailHost', () => {
  const lookup = answers({
    'smtp.example.com': ['8.8.4.4'],
    'metadata.example.com': ['169.254.169.254'],
    'mixed.example.com': ['8.8.8.8', '10.0.0.5'],
    'inside.example.com': ['10.0.0.1'],
    localhost: ['127.0.0.1', '::1'],
    'v6.example.com': ['2606:4700::1111'],
    'mapped.example.com': ['::ffff:8.8.8.8'],
  });

  it('answers the address to connect to', async () => {
    await expect(
      resolveMailHost({ host: 'SMTP.Example.com.', port: 587, kind: 'smtp', network: 'public', lookup }),
    ).resolves.toEqual({ address: '8.8.4.4', family: 4 });
    await expect(
      resolveMailHost({ host: 'v6.example.com', port: 993, kind: 'imap', network: 'public', lookup }),
    ).resolves.toEqual({ address: '2606:4700::1111', family: 6 });
    await expect(
      resolveMailHost({ host: 'mapped.example.com', port: 465, kind: 'smtp', network: 'public', lookup }),
    ).resolves.toEqual({ address: '8.8.8.8', family: 4 });
  });

  it('accepts any port from 1 to 65535 and refuses the rest before any lookup', async () => {
    // Real servers listen where their owner put them (Postfix on 10025, Dovecot on 10143…): the guard
    // judges the address, not the port.
    for (const [port, kind] of [
      [22, 'smtp'],
      [10025, 'smtp'],
      [1, 'imap'],
      [65535, 'imap'],
    ] as const) {
      await expect(
        resolveMailHost({ host: 'smtp.example.com', port, kind, network: 'public', lookup }),
        `${kind} ${port}`,
      ).resolves.toEqual({ address: '8.8.4.4', family: 4 });
    }
    let looked = false;
    const counting: HostLookup = async (host) => {
      looked = true;
      return lookup(host);
    };
    for (const port of [0, -1, 65536, 1.5, Number.NaN]) {
      const error = await refusal(
        resolveMailHost({
          host: 'smtp.example.com',
          port,
          kind: 'smtp',
          network: 'public',
          lookup: counting,
        }),
      );
      expect(error.code).toBe('validation');
      expect(error.message).toBe(NETWORK_GUARD_MESSAGES.port);
      expect(error.extra.errors).toEqual([{ path: 'smtpPort', message: error.message }]);
    }
    const imap = await refusal(
      resolveMailHost({
        host: 'smtp.example.com',
        port: 0,
        kind: 'imap',
        network: 'public',
        lookup: counting,
      }),
    );
    expect(imap.extra.errors).toEqual([{ path: 'imapPort', message: NETWORK_GUARD_MESSAGES.port }]);
    expect(looked).toBe(false);
  });

  it('keeps refusing internal addresses on any port', async () => {
    for (const port of [25, 10025, 6379]) {
      const error = await refusal(
        resolveMailHost({ host: 'inside.example.com', port, kind: 'smtp', network: 'public', lookup }),
      );
      expect(error.message).toBe('This mail server address is not allowed');
    }
  });

  it('refuses a name that resolves to the metadata service, or to any internal address', async () => {
    for (const host of ['metadata.example.com', 'mixed.example.com', 'inside.example.com']) {
      const error = await refusal(
        resolveMailHost({ host, port: 587, kind: 'smtp', network: 'public', lookup }),
      );
      expect(error.message, host).toBe('This mail server address is not allowed');
      expect(error.extra.errors).toEqual([{ path: 'smtpHost', message: error.message }]);
    }
    const imap = await refusal(
      resolveMailHost({ host: 'metadata.example.com', port: 993, kind: 'imap', network: 'private', lookup }),
    );
    expect(imap.extra.errors).toEqual([
      { path: 'imapHost', message: 'This mail server address is not allowed' },
    ]);
  });

  it('checks literal addresses the same way', async () => {
    for (const host of ['169.254.169.254', '10.0.0.1', '127.0.0.1', '0.0.0.0']) {
      const error = await refusal(
        resolveMailHost({ host, port: 25, kind: 'smtp', network: 'public', lookup }),
      );
      expect(error.message, host).toBe('This mail server address is not allowed');
    }
    await expect(
      resolveMailHost({ host: '127.0.0.1', port: 2525, kind: 'smtp', network: 'loopback', lookup }),
    ).resolves.toEqual({ address: '127.0.0.1', family: 4 });
    await expect(
      resolveMailHost({ host: '10.0.0.1', port: 2525, kind: 'smtp', network: 'private', lookup }),
    ).resolves.toEqual({ address: '10.0.0.1', family: 4 });
    await refusal(
      resolveMailHost({ host: '10.0.0.1', port: 2525, kind: 'smtp', network: 'loopback', lookup }),
    );
    await refusal(
      resolveMailHost({ host: '169.254.169.254', port: 25, kind: 'smtp', network: 'private', lookup }),
    );
  });

  it('lets loopback names through only where the operator allows loopback', async () => {
    await refusal(resolveMailHost({ host: 'localhost', port: 25, kind: 'smtp', network: 'public', lookup }));
    await expect(
      resolveMailHost({ host: 'localhost', port: 25, kind: 'smtp', network: 'loopback', lookup }),
    ).resolves.toEqual({ address: '127.0.0.1', family: 4 });
  });

  it('refuses an unencrypted connection across the internet, not to a relay on our own network', async () => {
    const error = await refusal(
      resolveMailHost({
        host: 'smtp.example.com',
        port: 587,
        kind: 'smtp',
        network: 'public',
        lookup,
        plaintext: true,
      }),
    );
    expect(error.message).toMatch(/^Choose SSL\/TLS or STARTTLS/);
    expect(error.extra.errors).toEqual([{ path: 'smtpSecurity', message: error.message }]);
    await expect(
      resolveMailHost({
        host: 'inside.example.com',
        port: 25,
        kind: 'smtp',
        network: 'private',
        lookup,
        plaintext: true,
      }),
    ).resolves.toEqual({ address: '10.0.0.1', family: 4 });
    await expect(
      resolveMailHost({
        host: 'localhost',
        port: 143,
        kind: 'imap',
        network: 'loopback',
        lookup,
        plaintext: true,
      }),
    ).resolves.toEqual({ address: '127.0.0.1', family: 4 });
  });

  it('says plainly when the server cannot be found', async () => {
    const error = await refusal(
      resolveMailHost({ host: 'nowhere.example.com', port: 587, kind: 'smtp', network: 'public', lookup }),
    );
    expect(error.message).toBe('We could not find the mail server nowhere.example.com');
    const empty = await refusal(
      resolveMailHost({
        host: 'a.example',
        port: 587,
        kind: 'smtp',
        network: 'public',
        lookup: async () => [],
      }),
    );
    expect(empty.message).toBe('We could not find the mail server a.example');
  });

  it('resolves with the system resolver when none is given (numeric forms included)', async () => {
    // getaddrinfo reads 2130706433 as 127.0.0.1: the guard judges the address it really resolves to.
    const error = await refusal(
      resolveMailHost({ host: '2130706433', port: 25, kind: 'smtp', network: 'public' }),
    );
    expect(error.message).toBe('This mail server address is not allowed');
    await expect(
      resolveMailHost({ host: 'localhost', port: 587, kind: 'smtp', network: 'loopback' }),
    ).resolves.toMatchObject({ address: expect.stringMatching(/^(127\.|::1$)/) });
  });
});
