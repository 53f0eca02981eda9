import { lazy } from 'react';
import { SettingsPage } from '../../features/settings/SettingsPage.tsx';
import type { SettingsTab } from '../../features/settings/tabs.ts';

/**
 * The Settings tabs, in order (a feature never imports another: app/ composes). A new tab, such as the audit
 * log's `AuditLogPanel` or webhooks' `WebhooksPanel`, is one more entry here.
 */
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
];

export function SettingsWithTabs() {
  return <SettingsPage tabs={SETTINGS_TABS} />;
}
