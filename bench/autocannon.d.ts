// autocannon ships no types and @types/autocannon is not installed: the part bench/tracking uses.
declare module 'autocannon' {
  interface AutocannonOptions {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    sampleInt?: number;
    headers?: Record<string, string>;
    requests?: { method?: string; path?: string; headers?: Record<string, string> }[];
  }
  interface Percentiles {
    average: number;
    p50: number;
    p99: number;
  }
  interface AutocannonResult {
    duration: number;
    errors: number;
    timeouts: number;
    '1xx': number;
    '2xx': number;
    '3xx': number;
    '4xx': number;
    '5xx': number;
    latency: Percentiles;
    requests: Percentiles & { total: number; sent: number };
  }
  function autocannon(options: AutocannonOptions): Promise<AutocannonResult>;
  export default autocannon;
}
