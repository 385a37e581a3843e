// The fake OpenAI-compatible provider as a process of its own, for the browser suite (playwright.config.ts
// starts it beside the app): every draft it writes is the same short English email with merge tags.
import { startFakeAiProvider } from '@tests/fakes/ai-provider';
import { E2E_AI_PORT } from './env';

const provider = await startFakeAiProvider({ port: E2E_AI_PORT });
process.stdout.write(`fake AI provider at ${provider.baseUrl}\n`);
const stop = () => void provider.close().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
