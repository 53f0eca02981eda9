import { getBucketResult as bucketResultEndpoint } from '@flywheel/shared/endpoints/buckets';
import { callEndpoint } from '../../../lib/endpoint-client.ts';

/** GET /bucket/getbucketres/{id}/{teamId}: the rows of the bucket's last run (for the CSV). */
export const getBucketResult = (teamId: string, id: number) =>
  callEndpoint(bucketResultEndpoint, { params: { id, teamId } }).then((a) => a.data);
