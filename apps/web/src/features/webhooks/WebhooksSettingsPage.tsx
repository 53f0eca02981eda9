import { PageHeader } from '../../components/PageHeader.tsx';
import { WebhooksPanel } from './components/WebhooksPanel.tsx';

/** /dashboard/settings/webhooks: outbound webhooks (folded into the Settings tabs when they exist). */
export function WebhooksSettingsPage() {
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Tell another system when members join or leave, forms come back, polls close, sends finish or a workflow step fails."
      />
      <WebhooksPanel />
    </>
  );
}
