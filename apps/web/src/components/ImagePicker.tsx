import { useEffect, useRef, useState } from 'react';
import { ActionIcon, Button, FileButton, Group, Image, Input, Paper, Stack, Text } from '@mantine/core';
import { IconPhotoPlus, IconX } from '@tabler/icons-react';
import { DELIVERY_TEXTS, IMAGE_MIME_TYPES, MAX_IMAGE_BYTES, MAX_IMAGES } from '@flywheel/shared/delivery';

export type ImagePickerProps = {
  files: readonly File[];
  onChange(files: File[]): void;
  disabled?: boolean;
};

const ACCEPT = IMAGE_MIME_TYPES.join(',');

/** Why `picked` cannot join `current`, or null. */
export function imagesProblem(current: readonly File[], picked: readonly File[]): string | null {
  if (current.length + picked.length > MAX_IMAGES) return DELIVERY_TEXTS.tooManyImages;
  if (picked.some((f) => !(IMAGE_MIME_TYPES as readonly string[]).includes(f.type)))
    return DELIVERY_TEXTS.imageType;
  if (picked.some((f) => f.size > MAX_IMAGE_BYTES)) return DELIVERY_TEXTS.imageSize;
  return null;
}

/** A preview URL per file while it is shown (none where the browser cannot make one). */
export function usePreviews(files: readonly File[]): Map<File, string> {
  const [urls, setUrls] = useState(() => new Map<File, string>());
  useEffect(() => {
    if (typeof URL.createObjectURL !== 'function') return;
    const next = new Map(files.map((f) => [f, URL.createObjectURL(f)] as const));
    setUrls(next);
    return () => next.forEach((url) => URL.revokeObjectURL(url));
  }, [files]);
  return urls;
}

/**
 * 'Choose Image(s)': up to 10 png or jpeg images of at most 5 MB each, shown as
 * thumbnails with a remove button. A choice that breaks a rule is refused whole, with the product's text.
 */
export function ImagePicker({ files, onChange, disabled }: ImagePickerProps) {
  const [problem, setProblem] = useState<string | null>(null);
  const reset = useRef<() => void>(null);
  const previews = usePreviews(files);

  const pick = (picked: File[]) => {
    reset.current?.();
    if (picked.length === 0) return;
    const why = imagesProblem(files, picked);
    setProblem(why);
    if (!why) onChange([...files, ...picked]);
  };

  return (
    <Stack gap={6}>
      <Group gap="sm">
        <FileButton onChange={pick} accept={ACCEPT} multiple resetRef={reset} disabled={disabled}>
          {(props) => (
            <Button
              {...props}
              variant="default"
              leftSection={<IconPhotoPlus size={16} />}
              disabled={disabled}
            >
              Choose Image(s)
            </Button>
          )}
        </FileButton>
        <Text fz="xs" c="dimmed">
          {files.length}/{MAX_IMAGES} · png or jpeg, 5 MB each
        </Text>
      </Group>
      {problem ? <Input.Error role="alert">{problem}</Input.Error> : null}
      {files.length > 0 ? (
        <Group gap="xs" role="group" aria-label="Chosen images">
          {files.map((file, i) => (
            <Paper key={`${file.name}-${i}`} withBorder radius="sm" p={4} pos="relative" w={84}>
              <Image src={previews.get(file)} alt={file.name} h={64} w={74} fit="cover" radius="xs" />
              <Text fz={10} truncate="end" title={file.name}>
                {file.name}
              </Text>
              <ActionIcon
                size="xs"
                radius="xl"
                color="red"
                variant="filled"
                pos="absolute"
                top={-6}
                right={-6}
                aria-label={`Remove ${file.name}`}
                disabled={disabled}
                onClick={() => {
                  setProblem(null);
                  onChange(files.filter((_, j) => j !== i));
                }}
              >
                <IconX size={10} />
              </ActionIcon>
            </Paper>
          ))}
        </Group>
      ) : null}
    </Stack>
  );
}
