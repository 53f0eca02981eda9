import type { UploadImageResponse } from '@flywheel/shared/delivery';
import { uploadImage as uploadImageCall } from '@flywheel/shared/endpoints/delivery';
import { uploadEndpoint } from './upload-request.ts';

/** POST /quickaction/uploadimage (multipart: team_id, image): the image goes to Slack; its file id comes back. */
export function uploadImage(
  teamId: string,
  file: File,
  onProgress?: (fraction: number) => void,
): Promise<UploadImageResponse> {
  const form = new FormData();
  form.append('team_id', teamId);
  form.append('image', file, file.name);
  return uploadEndpoint(uploadImageCall, form, { onProgress });
}

/** Uploads the images one after another; `onProgress` gets the share of all of them done, 0 to 1. */
export async function uploadImages(
  teamId: string,
  files: readonly File[],
  onProgress: (fraction: number) => void,
): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, file] of files.entries()) {
    const res = await uploadImage(teamId, file, (f) => onProgress((i + f) / files.length));
    ids.push(res.data.file_id);
  }
  onProgress(1);
  return ids;
}
