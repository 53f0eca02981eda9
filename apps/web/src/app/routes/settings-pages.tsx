import { lazy } from 'react';
import { SettingsPage } from '../../features/settings/SettingsPage.tsx';
import type { SettingsTab } from '../../features/settings/tabs.ts';

/** The Settings tabs, in order (a feature never imports another: app/ composes). A new tab is one more entry. */
export const SETTINGS_TABS: SettingsTab[] = [
  {
    value: 'team',
    label: 'Team',
    Panel: lazy(() =>
      import('../../features/workspaces/components/TeamPanel.tsx').then((m) => ({ default: m.TeamPanel })),
    ),
  },
  {
    value: 'api-keys',
    label: 'API keys',
    Panel: lazy(() =>
      import('../../features/workspaces/components/ApiKeysPanel.tsx').then((m) => ({
        default: m.ApiKeysPanel,
      })),
    ),
  },
  {
    value: 'audit-log',
    label: 'Audit log',
    Panel: lazy(() =>
      import('../../features/audit/AuditLogTab.tsx').then((m) => ({ default: m.AuditLogTab })),
    ),
  },
  {
    value: 'digest',
    label: 'Weekly digest',
    Panel: lazy(() => import('../../features/digest/DigestTab.tsx').then((m) => ({ default: m.DigestTab }))),
  },
  {
    value: 'webhooks',
    label: 'Webhooks',
    Panel: lazy(() =>
      import('../../features/webhooks/WebhooksTab.tsx').then((m) => ({ default: m.WebhooksTab })),
    ),
  },
];

export function SettingsWithTabs() {
  return <SettingsPage tabs={SETTINGS_TABS} />;
}
