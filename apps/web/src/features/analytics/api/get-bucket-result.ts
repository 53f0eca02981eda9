import { bucketResultResponse } from '@flywheel/shared/buckets';
import { requestData } from '../../../lib/api-data.ts';

/** GET /bucket/getbucketres/{id}/{teamId}: the rows of the bucket's last run (for the CSV). */
export const getBucketResult = (teamId: string, id: number) =>
  requestData(`/bucket/getbucketres/${id}/${encodeURIComponent(teamId)}`, bucketResultResponse);
