import { PageHeader } from '../../components/PageHeader.tsx';
import { useCurrentTeam } from '../../lib/workspace-data.ts';
import { AuditLogPanel } from './components/AuditLogPanel.tsx';

/** Settings › Audit log (the settings tabs will hold the panel; until then, its own page). */
export function AuditLogPage() {
  const { teamId } = useCurrentTeam();
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Who did what in this workspace, and when: sends, changes, invitations and logins."
      />
      <AuditLogPanel teamId={teamId} />
    </>
  );
}
