/*
 * The workspace's tags: the list login loads, and creating one.
 * Public surface of entities/tags: import it from here, never its files (eslint.config.js).
 */
export { useCreateTag, useCreatingTag } from './create-tag.ts';
export { tagsQuery, useTags } from './tags-query.ts';
