import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';

/**
 * A tiny authoritative DNS server on loopback UDP for the import's MX check and the sender domain checks:
 * answers MX, A and TXT queries from a table, NXDOMAIN for names it does not know.
 */
export interface FakeDnsZone {
  mx?: { priority: number; exchange: string }[];
  a?: string[];
  /** TXT records; a value longer than 255 characters is sent as several strings, as real DNS does. */
  txt?: string[];
}

export interface FakeDns {
  server: string;
  queries: { name: string; type: number }[];
  close(): Promise<void>;
}

const TYPE_A = 1;
const TYPE_MX = 15;
const TYPE_TXT = 16;

function encodeName(name: string): Buffer {
  const parts = name === '' ? [] : name.split('.');
  return Buffer.concat([
    ...parts.map((p) => Buffer.concat([Buffer.from([p.length]), Buffer.from(p)])),
    Buffer.from([0]),
  ]);
}

function readQuestion(msg: Buffer): { name: string; type: number; end: number } {
  const labels: string[] = [];
  let offset = 12;
  while (msg[offset]! !== 0) {
    const length = msg[offset]!;
    labels.push(msg.subarray(offset + 1, offset + 1 + length).toString());
    offset += length + 1;
  }
  const type = msg.readUInt16BE(offset + 1);
  return { name: labels.join('.').toLowerCase(), type, end: offset + 5 };
}

export async function startFakeDns(zones: Record<string, FakeDnsZone>): Promise<FakeDns> {
  const socket = createSocket('udp4');
  const queries: FakeDns['queries'] = [];
  socket.on('message', (msg, remote) => {
    const { name, type, end } = readQuestion(msg);
    queries.push({ name, type });
    const zone = zones[name];
    const answers: Buffer[] = [];
    if (zone && type === TYPE_MX) {
      for (const mx of zone.mx ?? []) {
        const rdata = Buffer.concat([
          Buffer.from([mx.priority >> 8, mx.priority & 0xff]),
          encodeName(mx.exchange),
        ]);
        answers.push(record(TYPE_MX, rdata));
      }
    } else if (zone && type === TYPE_A) {
      for (const ip of zone.a ?? []) answers.push(record(TYPE_A, Buffer.from(ip.split('.').map(Number))));
    } else if (zone && type === TYPE_TXT) {
      for (const value of zone.txt ?? []) answers.push(record(TYPE_TXT, encodeTxt(value)));
    }
    const header = Buffer.alloc(12);
    msg.copy(header, 0, 0, 2);
    header.writeUInt16BE(zone ? 0x8180 : 0x8183, 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    socket.send(Buffer.concat([header, msg.subarray(12, end), ...answers]), remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    server: `127.0.0.1:${port}`,
    queries,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

function encodeTxt(value: string): Buffer {
  const bytes = Buffer.from(value);
  const strings: Buffer[] = [];
  for (let offset = 0; offset < bytes.length || strings.length === 0; offset += 255) {
    const chunk = bytes.subarray(offset, offset + 255);
    strings.push(Buffer.concat([Buffer.from([chunk.length]), chunk]));
  }
  return Buffer.concat(strings);
}

function record(type: number, rdata: Buffer): Buffer {
  const head = Buffer.alloc(12);
  head.writeUInt16BE(0xc00c, 0);
  head.writeUInt16BE(type, 2);
  head.writeUInt16BE(1, 4);
  head.writeUInt32BE(60, 6);
  head.writeUInt16BE(rdata.length, 10);
  return Buffer.concat([head, rdata]);
}
