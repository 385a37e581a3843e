import {
  Activity,
  AlarmClock,
  BarChart3,
  BookOpen,
  CalendarClock,
  ClipboardList,
  CreditCard,
  Crown,
  Database,
  DatabaseZap,
  FileText,
  Gauge,
  Globe,
  HeartPulse,
  Inbox,
  LayoutDashboard,
  LifeBuoy,
  ListChecks,
  type LucideIcon,
  Mail,
  Newspaper,
  Receipt,
  ScrollText,
  Search,
  Send,
  Settings,
  ShieldCheck,
  Trash2,
  UserCog,
  Users,
  Workflow,
} from 'lucide-react';

export interface NavItem {
  title: string;
  href: string;
  icon: LucideIcon;
}

export interface NavGroup {
  id: string;
  title: string;
  defaultOpen: boolean;
  items: NavItem[];
}

/** The subscriber menu, 11 items. */
export const USER_MENU: NavItem[] = [
  { title: 'Dashboard', href: '/dashboard', icon: LayoutDashboard },
  { title: 'Browse Contacts', href: '/lead-discovery', icon: Search },
  { title: 'Campaigns', href: '/campaigns', icon: Send },
  { title: 'Newsletters', href: '/newsletters', icon: Newspaper },
  { title: 'Templates', href: '/templates', icon: FileText },
  { title: 'Analytics', href: '/analytics', icon: BarChart3 },
  { title: 'Subscription', href: '/subscription', icon: CreditCard },
  { title: 'Upgrade', href: '/upgrade', icon: Crown },
  { title: 'Settings', href: '/settings', icon: Settings },
  { title: 'Help', href: '/help', icon: LifeBuoy },
  { title: 'Status', href: '/status', icon: HeartPulse },
];

/**
 * The admin menu, 26 items in 7 groups; the first three groups start expanded.
 * Recategorization and Cost Optimization are reached from Contact Database and System Analytics.
 */
export const ADMIN_MENU: NavGroup[] = [
  {
    id: 'core',
    title: 'Core Management',
    defaultOpen: true,
    items: [
      { title: 'Admin Dashboard', href: '/admin-dashboard', icon: LayoutDashboard },
      { title: 'Users', href: '/admin/users', icon: Users },
      { title: 'Orders', href: '/admin/orders', icon: Receipt },
      { title: 'Subscriptions', href: '/admin/subscriptions', icon: CreditCard },
    ],
  },
  {
    id: 'email',
    title: 'Email & Campaigns',
    defaultOpen: true,
    items: [
      { title: 'Campaigns', href: '/admin/campaigns', icon: Send },
      { title: 'Newsletters', href: '/admin/newsletters', icon: Newspaper },
      { title: 'Templates', href: '/admin/templates', icon: FileText },
      { title: 'Email Queue', href: '/admin/email-queue-status', icon: Mail },
      { title: 'Automated Schedules', href: '/admin/automated-schedules', icon: CalendarClock },
      { title: 'Dev Mailbox', href: '/admin/dev-mailbox', icon: Inbox },
    ],
  },
  {
    id: 'data',
    title: 'Data & Contacts',
    defaultOpen: true,
    items: [
      { title: 'Contact Database', href: '/admin/contact-database', icon: Database },
      { title: 'Contacts', href: '/admin/contacts', icon: ClipboardList },
      { title: 'Scraper', href: '/admin/scraper', icon: Workflow },
      { title: 'User Lists', href: '/admin/user-lists', icon: ListChecks },
      { title: 'Data Entry Management', href: '/admin/data-entry-management', icon: UserCog },
    ],
  },
  {
    id: 'business',
    title: 'User & Business',
    defaultOpen: false,
    items: [{ title: 'Recycle Bin', href: '/admin/recycle-bin', icon: Trash2 }],
  },
  {
    id: 'analytics',
    title: 'Analytics & Insights',
    defaultOpen: false,
    items: [
      { title: 'Analytics', href: '/admin/analytics', icon: BarChart3 },
      { title: 'System Analytics', href: '/admin/system-analytics', icon: Gauge },
      { title: 'Website Traffic', href: '/admin/website-traffic', icon: Globe },
    ],
  },
  {
    id: 'monitoring',
    title: 'System Monitoring',
    defaultOpen: false,
    items: [
      { title: 'Security Monitor', href: '/admin/security-monitor', icon: ShieldCheck },
      { title: 'Database Monitor', href: '/admin/database-monitor', icon: DatabaseZap },
      { title: 'Email Processing', href: '/admin/email-processing-monitor', icon: Activity },
      { title: 'Alerting', href: '/admin/alerting-dashboard', icon: AlarmClock },
      { title: 'Logs', href: '/admin/log-dashboard', icon: ScrollText },
    ],
  },
  {
    id: 'settings',
    title: 'Settings',
    defaultOpen: false,
    items: [
      { title: 'Settings', href: '/admin/settings', icon: Settings },
      { title: 'Documentation', href: '/admin/documentation', icon: BookOpen },
    ],
  },
];

/** A data entry officer sees only these two. */
export const DATA_ENTRY_MENU: NavItem[] = [
  { title: 'Data Entry Dashboard', href: '/data-entry', icon: ClipboardList },
  { title: 'Help', href: '/help', icon: LifeBuoy },
];

const EXTRA_TITLES: Record<string, string> = {
  '/data-entry': 'Data Entry Dashboard',
  '/knowledge-base': 'Knowledge Base',
  '/pricing': 'Pricing',
  '/payment': 'Payment',
  '/payment-success': 'Payment',
  '/complete-signup': 'Complete Sign-up',
  '/database-download': 'Database Download',
  '/lead-discovery/import': 'Import Contacts',
  '/lead-discovery/lists': 'My Lists',
  '/admin/contact-database/import': 'Bulk Import',
  '/launch': 'Launch',
  '/admin/cache-monitor': 'Cache Monitor',
  '/admin/recategorization': 'Recategorization',
  '/admin/cost-optimization': 'Cost Optimization',
  '/admin/newsletter-editor': 'Newsletter Editor',
  '/newsletter-editor': 'Newsletter Editor',
};

const TITLE_BY_PATH: Map<string, string> = new Map([
  ...USER_MENU.map((item) => [item.href, item.title] as const),
  ...ADMIN_MENU.flatMap((group) => group.items.map((item) => [item.href, item.title] as const)),
  ...Object.entries(EXTRA_TITLES),
]);

/** The header title of a signed-in route: its menu label, or the nearest parent's, else Tambari. */
export function getPageTitle(pathname: string): string {
  const exact = TITLE_BY_PATH.get(pathname);
  if (exact) return exact;
  if (/^\/(admin\/)?campaigns\/[^/]+\/(steps|step\/)/.test(pathname)) return 'Campaign Steps';
  if (/^\/(admin\/)?newsletters\/editor/.test(pathname)) return 'Newsletter Editor';
  if (/^\/newsletters\/[^/]+\/report$/.test(pathname)) return 'Newsletter Report';
  const segments = pathname.split('/').filter(Boolean);
  while (segments.length > 1) {
    segments.pop();
    const parent = TITLE_BY_PATH.get(`/${segments.join('/')}`);
    if (parent) return parent;
  }
  return 'Tambari';
}
