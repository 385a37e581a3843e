import { z } from 'zod';

/** GET /api/health: 200 when every check passes, 503 (same body) when one fails; the /status page reads it. */
export const HEALTH_CHECK_STATES = ['ok', 'failing'] as const;
const check = z.enum(HEALTH_CHECK_STATES);

export const healthSchema = z.object({ status: check, database: check, queue: check });
export type Health = z.infer<typeof healthSchema>;
