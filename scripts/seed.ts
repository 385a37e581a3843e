// `npm run seed`: creates the demo accounts if they are missing and prints their logins.
// With the embedded database, stop `npm start` first: only one process may open PGlite.
import { seedDemoAccounts } from '../src/server/seed/demo-accounts';
import { openCliServices } from './cli-services';

const services = await openCliServices();
const created = await seedDemoAccounts(services, {
  password: services.env.DEMO_PASSWORD,
  print: (line) => process.stdout.write(`${line}\n`),
});
if (created === 0) process.stdout.write('The demo accounts already exist.\n');
await services.database.close();
