export { useCreateTag, useCreatingTag } from './create-tag.ts';
export { tagsQuery, useTags } from './tags-query.ts';
