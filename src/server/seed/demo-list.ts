import { findUserByEmail } from '../features/auth/auth.service';
import { addListContact, createList, listLists } from '../features/lists/lists.service';
import type { Services } from '../services';
import { DEMO_ACCOUNTS } from './demo-accounts';

export const DEMO_LIST_NAME = 'Demo: Lagos and Accra prospects';

/**
 * Twenty made-up prospects on reserved domains (example.com, *.test: nobody real is ever mailed), so the
 * demo subscriber can build and launch a first campaign at once and read every message in the
 * development mailbox. Their cities, countries and custom field make the merge tags worth previewing.
 */
const DEMO_PROSPECTS = [
  ['Amaka', 'Okonkwo', 'Kano Foods', 'Operations Manager', 'Lagos', 'NG', 'restaurants'],
  ['Tunde', 'Bakare', 'Ikeja Logistics', 'Managing Director', 'Lagos', 'NG', 'logistics'],
  ['Ngozi', 'Eze', 'Lekki Dental Clinic', 'Practice Manager', 'Lagos', 'NG', 'healthcare'],
  ['Chinedu', 'Obi', 'Surulere Prints', 'Owner', 'Lagos', 'NG', 'printing'],
  ['Funke', 'Adeyemi', 'Yaba Tech Hub', 'Head of Partnerships', 'Lagos', 'NG', 'technology'],
  ['Ibrahim', 'Musa', 'Abuja Solar Works', 'Sales Director', 'Abuja', 'NG', 'energy'],
  ['Halima', 'Bello', 'Kaduna Textiles', 'Procurement Lead', 'Kaduna', 'NG', 'manufacturing'],
  ['Emeka', 'Nwosu', 'Enugu Builders', 'Project Manager', 'Enugu', 'NG', 'construction'],
  ['Bisi', 'Ogunleye', 'Ibadan Fresh Farms', 'Founder', 'Ibadan', 'NG', 'agriculture'],
  ['Segun', 'Afolabi', 'Port Harcourt Marine', 'Operations Director', 'Port Harcourt', 'NG', 'logistics'],
  ['Kwame', 'Mensah', 'Accra Spice Traders', 'General Manager', 'Accra', 'GH', 'retail'],
  ['Ama', 'Owusu', 'Osu Boutique Hotel', 'Front Office Manager', 'Accra', 'GH', 'hospitality'],
  ['Kofi', 'Asante', 'Kumasi Cocoa Co', 'Export Manager', 'Kumasi', 'GH', 'agriculture'],
  ['Efua', 'Boateng', 'Tema Freight', 'Customer Success Lead', 'Tema', 'GH', 'logistics'],
  ['Yaw', 'Darko', 'Accra Fintech Labs', 'CTO', 'Accra', 'GH', 'technology'],
  ['Wanjiru', 'Kamau', 'Nairobi Coffee House', 'Owner', 'Nairobi', 'KE', 'restaurants'],
  ['Otieno', 'Odhiambo', 'Kisumu Fisheries', 'Director', 'Kisumu', 'KE', 'agriculture'],
  ['Thandiwe', 'Nkosi', 'Soweto Fitness', 'Studio Manager', 'Johannesburg', 'ZA', 'fitness'],
  ['Sipho', 'Dlamini', 'Durban Auto Parts', 'Purchasing Manager', 'Durban', 'ZA', 'automotive'],
  ['Zainab', 'Abdullahi', 'Kano Leatherworks', 'Creative Director', 'Kano', 'NG', 'manufacturing'],
] as const;

function demoEmail(firstName: string, company: string): string {
  const domain = company.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return `${firstName.toLowerCase()}@${domain}.example.com`;
}

/**
 * Creates the demo list for the demo subscriber when they have no list. Called on the start that created
 * the demo accounts, so a list the user deleted later does not come back.
 */
export async function seedDemoList(
  services: Pick<Services, 'db'>,
  options: { print: (line: string) => void },
): Promise<boolean> {
  const subscriber = DEMO_ACCOUNTS.find((a) => a.role === 'user');
  if (!subscriber) return false;
  const user = await findUserByEmail({ db: services.db, email: subscriber.email });
  if (!user) return false;
  if ((await listLists({ db: services.db, userId: user.id })).length > 0) return false;
  const list = await createList({
    db: services.db,
    userId: user.id,
    name: DEMO_LIST_NAME,
    description: 'Made-up businesses on example.com addresses: safe to send to, caught by the dev mailbox.',
    customFields: ['industry'],
  });
  const actor = { id: user.id, role: user.role };
  for (const [firstName, lastName, company, jobTitle, city, countryCode, industry] of DEMO_PROSPECTS) {
    await addListContact({
      db: services.db,
      actor,
      listId: list.id,
      fields: {
        email: demoEmail(firstName, company),
        firstName,
        lastName,
        company,
        jobTitle,
        city,
        countryCode,
        customFields: { industry },
      },
    });
  }
  options.print(
    `demo list: "${DEMO_LIST_NAME}" with ${DEMO_PROSPECTS.length} contacts for ${subscriber.email}`,
  );
  return true;
}
