import { IconReceipt } from '@tabler/icons-react';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PlaceholderCard } from '../../components/PlaceholderCard.tsx';

export function ReceiptsPage() {
  return (
    <>
      <PageHeader title="Receipts" description="Proof of delivery for every bulk action." />
      <PlaceholderCard
        icon={<IconReceipt size={26} />}
        title="Receipts Data"
        description="Each bulk action with its recipients: who got it, who did not, and why."
        upcoming={['Success and failure counts per action', 'Recipient CSV downloads', 'Processing status']}
      />
    </>
  );
}
