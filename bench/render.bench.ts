// `npm run bench -- render [--count N]`: personalising and rendering the messages of a 3-step campaign on one
// core — spintax, merge tags with fallbacks and custom fields, HTML escaping, then what queueing does to each
// message (tracked links, open pixel, text part via prepareMessageContent). No database: rendering is pure.
// Baseline in the same run: prepareMessageContent alone on the unpersonalised body, so the ratio shows what
// personalisation adds on a noisy machine. Goal: ≥ 5,000 messages/s, so rendering never limits dispatch.
import { renderForContact, renderSeed } from '@server/features/personalization/personalize';
import { prepareMessageContent } from '@server/features/sending/message-content';

const STEPS = [
  {
    id: '0b5c3d52-5a44-4f0e-9d55-3b1f2a0c0001',
    subject: '{Quick question|A thought} for {{ company | default: "your team" }}',
    html: `<!doctype html><html><body style="margin:0;padding:0">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td style="padding:24px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:22px;color:#1f2933">
<p>{Hi|Hello|Good morning} {{ firstName | default: "there" }},</p>
<p>I noticed {{ company | default: "your company" }} works in {{ fields.industry | default: "your sector" }} around {{ city | default: "your city" }}. We help food and agriculture businesses in {{ country | default: "West Africa" }} cut cold-chain losses by a third, with refrigerated storage in Kano, Lagos and Abuja.</p>
<p>{Would a 15-minute call next week be useful?|Could we find 15 minutes next week to compare notes?} Here is <a href="https://coldchain.example.ng/case-studies/kano-foods?utm_source=tambari">how Kano Foods did it</a>, and our <a href="https://coldchain.example.ng/pricing">pricing</a>.</p>
<p>{Best regards|Kind regards|Thanks},<br>{{ senderName }}<br><a href="mailto:{{ senderEmail }}">{{ senderEmail }}</a></p>
</td></tr></table></body></html>`,
  },
  {
    id: '0b5c3d52-5a44-4f0e-9d55-3b1f2a0c0002',
    subject: 'Re: {Quick question|A thought} for {{ company | default: "your team" }}',
    html: `<p>{Hi|Hello} {{ firstName | default: "there" }}, {just following up|bringing this back to the top of your inbox} on my note about cold storage for {{ company | default: "your business" }}.</p>
<p>{% if fields.industry %}Many {{ fields.industry | downcase }} firms{% else %}Many firms{% endif %} we work with in {{ city | default: "Nigeria" }} saved on spoilage in their first month. <a href="https://coldchain.example.ng/book?ref={{ email | url_encode }}">Pick a time here</a>.</p>
<p>{{ senderName }}</p>`,
  },
  {
    id: '0b5c3d52-5a44-4f0e-9d55-3b1f2a0c0003',
    subject: '{Should I close your file|Last note}, {{ firstName | default: "there" }}?',
    html: `<p>{{ firstName | default: "Hello" }},</p><p>I will not keep writing. If cold storage is ever on the agenda at {{ company | default: "your company" }}, <a href="https://coldchain.example.ng/contact">reply here</a> or call us.</p><p>{All the best|Warm regards},<br>{{ senderName }}</p>`,
  },
];

const FIRST = [
  'Amaka',
  'Chidi',
  'Ngozi',
  'Tunde',
  'Fatima',
  'Kwame',
  'Thabo',
  'Wanjiru',
  '',
  'Aïcha',
  'O"Brien <b>',
];
const COMPANIES = ['Kano Foods', 'Lagos Logistics', '', 'Accra Agro', 'Nairobi Fresh & Co', 'Dakar Cold'];
const CITIES = ['Lagos', 'Kano', 'Abuja', 'Accra', 'Nairobi', '', 'Dakar'];
const COUNTRIES = ['NG', 'NG', 'GH', 'KE', 'SN', 'ZA'];
const INDUSTRIES = ['Agriculture', 'Logistics', '', 'Retail', 'Hospitality'];

function contactAt(i: number) {
  return {
    email: `contact${i}@client${i % 97}.example.ng`,
    firstName: FIRST[i % FIRST.length]!,
    lastName: 'Okafor',
    company: COMPANIES[i % COMPANIES.length]!,
    city: CITIES[i % CITIES.length]!,
    countryCode: COUNTRIES[i % COUNTRIES.length]!,
    fields: { industry: INDUSTRIES[i % INDUSTRIES.length]! },
  };
}

const sender = { fromName: 'Tunde Bello', fromEmail: 'tunde@coldchain.example.ng' };
const CAMPAIGN_ID = '7d8e2a10-0000-4000-8000-000000000001';
const TRACKING = 'https://app.tambari.example';

function token(i: number): string {
  return `tok${i.toString(36).padStart(10, '0')}`;
}

export async function run(options: { db: 'pglite' | 'postgres'; count?: number }) {
  const messages = options.count ?? 100_000;
  process.stdout.write(
    `render: ${messages} messages of a 3-step campaign on one core (${STEPS.length} steps, spintax, tracking)\n`,
  );

  // Warm-up: parse caches and JIT, not timed.
  for (let i = 0; i < 2_000; i++) {
    const step = STEPS[i % 3]!;
    renderForContact({
      subject: step.subject,
      html: step.html,
      contact: contactAt(i),
      sender,
      seed: `w${i}`,
    });
  }

  let bytes = 0;
  let fallbacks = 0;
  const cpuStarted = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < messages; i++) {
    const step = STEPS[i % 3]!;
    const contact = contactAt(i);
    const rendered = renderForContact({
      subject: step.subject,
      html: step.html,
      contact,
      sender,
      seed: renderSeed({ campaignId: CAMPAIGN_ID, stepId: step.id, email: contact.email }),
    });
    const content = prepareMessageContent({
      html: rendered.html,
      token: token(i),
      trackingBaseUrl: TRACKING,
      trackOpens: true,
      trackClicks: true,
    });
    bytes += content.html.length + content.text.length + rendered.subject.length;
    if (rendered.fallbacksUsed.length > 0) fallbacks++;
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStarted);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const perSecond = Math.round(messages / seconds);
  // On a shared machine wall time includes waiting for a core; CPU time is the work itself.
  const perCpuSecond = Math.round(messages / cpuSeconds);

  // Baseline: the queue-time work alone (tracking rewrite + text part) on the template as written.
  const baselineCount = Math.min(messages, 30_000);
  const baseStarted = performance.now();
  for (let i = 0; i < baselineCount; i++) {
    const step = STEPS[i % 3]!;
    prepareMessageContent({
      html: step.html,
      token: token(i),
      trackingBaseUrl: TRACKING,
      trackOpens: true,
      trackClicks: true,
    });
  }
  const basePerSecond = Math.round(baselineCount / ((performance.now() - baseStarted) / 1000));

  // Personalisation alone (spintax + Liquid), without the queue-time HTML work.
  const personaliseStarted = performance.now();
  for (let i = 0; i < baselineCount; i++) {
    const step = STEPS[i % 3]!;
    const contact = contactAt(i);
    renderForContact({ subject: step.subject, html: step.html, contact, sender, seed: `${i}` });
  }
  const personalisePerSecond = Math.round(baselineCount / ((performance.now() - personaliseStarted) / 1000));

  process.stdout.write(
    `rendered ${messages} messages in ${seconds.toFixed(2)} s: ${perSecond}/s (${fallbacks} used a fallback, ${(bytes / 1e6).toFixed(1)} MB of output)\n`,
  );
  process.stdout.write(`CPU time ${cpuSeconds.toFixed(2)} s: ${perCpuSecond} messages per CPU-second\n`);
  process.stdout.write(`personalisation alone (spintax + merge tags): ${personalisePerSecond}/s\n`);
  process.stdout.write(`baseline, tracking rewrite + text part alone: ${basePerSecond}/s\n`);
  return {
    bench: 'render',
    messages,
    msgs_per_s: perSecond,
    msgs_per_cpu_s: perCpuSecond,
    personalize_only_per_s: personalisePerSecond,
    baseline_prepare_per_s: basePerSecond,
    ratio_vs_prepare_only: Math.round((perSecond / basePerSecond) * 100) / 100,
    goal_msgs_per_s: 5_000,
    peak_rss_mb: Math.round(process.memoryUsage().rss / 1e6),
  };
}
