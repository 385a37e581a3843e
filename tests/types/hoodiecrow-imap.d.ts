// hoodiecrow-imap (a scriptable IMAP server for tests) ships no types; this is the part of its API we use.
declare module 'hoodiecrow-imap' {
  import type { Server } from 'node:net';

  export interface HoodiecrowOptions {
    plugins?: string[];
    users?: Record<string, { password: string }>;
    storage?: Record<string, unknown>;
    /** Implicit TLS with these credentials (PEM key and certificate). */
    secureConnection?: boolean;
    credentials?: { key: string; cert: string };
  }
  export interface HoodiecrowServer {
    server: Server;
    listen(port: number, host: string, callback: () => void): void;
    close(callback: () => void): void;
  }
  export default function hoodiecrow(options?: HoodiecrowOptions): HoodiecrowServer;
}
