/** Word banks for generated people, channels and message text. */

export const FIRST_NAMES = (
  'Ada Alan Alice Amara Amir Ana Andre Anika Aria Arjun Ben Bianca Bruno Carla Carlos Chen Chloe Dana Daniel ' +
  'Diego Dmitri Elena Eli Emma Erik Esra Fatima Felix Fiona Gabriel Grace Hana Hassan Hugo Ines Ivan Jada ' +
  'James Jin Joao Jonas Julia Kai Kamal Karin Kenji Lara Leo Lina Luca Lucia Maya Mateo Mei Mila Min Nadia ' +
  'Naomi Nico Nina Noah Olga Omar Oscar Paula Priya Quinn Rafael Rania Ravi Rosa Ruth Sam Sara Sofia Tariq ' +
  'Theo Tomas Uma Vera Victor Wei Yara Yuki Zara Zoe Aiden Beatriz Caleb Delia Emeka Farah Goran Helga Ibrahim'
).split(' ');

export const LAST_NAMES = (
  'Adams Ahmed Alvarez Andersen Baker Bauer Becker Bianchi Brown Castro Chen Cohen Costa Cruz Dang Diaz Dubois ' +
  'Eriksson Evans Fischer Fontaine Garcia Gomez Gupta Haddad Hansen Harris Hoffmann Huang Ibrahim Ito Jansen ' +
  'Johnson Kaur Khan Kim Klein Kowalski Kumar Larsen Lee Lopez Martin Meyer Miller Moreau Murphy Nakamura ' +
  'Nguyen Novak Okafor Olsen Ortiz Park Patel Perez Petrov Quinn Rossi Russo Sato Schmidt Silva Singh Smith ' +
  'Sousa Suzuki Tanaka Taylor Thomas Torres Vargas Wagner Walker Wang Weber Williams Wilson Wong Yamamoto Young Zhang'
).split(' ');

export const CHANNEL_NAMES = (
  'announcements dev design marketing sales support help random-links product engineering ops frontend backend ' +
  'mobile data analytics hiring onboarding events community feedback releases qa security infra docs growth ' +
  'partners finance legal people social books music pets fitness travel food gaming photography remote ' +
  'standup retros incidents alerts ideas wins learning ai-ml devrel open-source meetups'
).split(' ');

export const TOPICS = (
  'release deploy roadmap dashboard onboarding pricing newsletter meetup webinar feedback bug feature sprint ' +
  'design review budget campaign launch metrics survey docs workshop hackathon workflow integration migration ' +
  'database analytics community event retention growth partner invoice customer ticket incident demo prototype ' +
  'api mobile android ios browser performance security backup calendar offsite podcast video tutorial'
).split(' ');

export const OPENERS = [
  'Quick question about the',
  'Has anyone looked at the',
  'Heads up: the',
  'Great work on the',
  'I just pushed an update to the',
  'Can someone review the',
  'Reminder that the',
  'Thoughts on the new',
  'We should talk about the',
  'Sharing notes from the',
  'Loving the progress on the',
  'Is there a doc for the',
  'FYI I moved the',
  'Who owns the',
  'Just finished the',
];

export const CLOSERS = [
  'today?',
  'this week.',
  'before Friday.',
  'for the team.',
  'in the next sprint.',
  ':tada:',
  'thanks!',
  '- let me know what you think.',
  'asap please.',
  'when you have a minute.',
  'and it looks good.',
  'with the latest changes.',
];

export const REPLIES = [
  'Agreed!',
  'Thanks for sharing.',
  'On it.',
  'Looks good to me :+1:',
  'I can take a look later today.',
  'Good point, let me check.',
  'Same here.',
  'Done, see the updated doc.',
  'Can we sync on this tomorrow?',
  'Nice one!',
  'Not sure, maybe ask in #help?',
  'That fixed it for me.',
];

export const REACTIONS = [
  '+1',
  'heart',
  'joy',
  'tada',
  'eyes',
  'white_check_mark',
  'raised_hands',
  'fire',
  '100',
  'pray',
  'rocket',
  'smile',
];

export const INTEGRATION_BOTS = [
  { name: 'GitHub', text: 'New pull request opened: Improve the' },
  { name: 'Jira', text: 'Issue moved to Done:' },
  { name: 'PagerDuty', text: 'Incident resolved for the' },
];

export const TIMEZONES = [
  { tz: 'America/New_York', label: 'Eastern Standard Time', offset: -18000 },
  { tz: 'America/Los_Angeles', label: 'Pacific Standard Time', offset: -28800 },
  { tz: 'Europe/London', label: 'Greenwich Mean Time', offset: 0 },
  { tz: 'Europe/Berlin', label: 'Central European Time', offset: 3600 },
  { tz: 'Asia/Kolkata', label: 'India Standard Time', offset: 19800 },
  { tz: 'Asia/Tokyo', label: 'Japan Standard Time', offset: 32400 },
  { tz: 'America/Sao_Paulo', label: 'Brasilia Standard Time', offset: -10800 },
];

export const TITLES = ['', '', '', 'Engineer', 'Designer', 'Community Manager', 'Product Manager', 'Founder'];

export const COLORS = ['9f69e7', '4bbe2e', 'e7392d', '3c989f', 'e96699', 'db3150', '5b89d5', 'e0a729'];

/** Emoji names the member page offers and the API accepts without question. */
export const REACTION_NAMES = new Set([
  ...REACTIONS,
  'thumbsup',
  'thumbsdown',
  '-1',
  'ok_hand',
  'clap',
  'wave',
  'star',
  'bulb',
  'question',
  'x',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'keycap_ten',
  'a',
  'b',
  'heavy_check_mark',
]);
