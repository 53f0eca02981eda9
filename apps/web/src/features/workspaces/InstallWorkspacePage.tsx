import { Center, Loader, Stack, Text } from '@mantine/core';
import { LogoMark } from '../../components/Logo.tsx';

/** /installworkspace: the Slack authorization comes back here (install flow arrives later). */
export function InstallWorkspacePage() {
  return (
    <Center mih="100vh" p="xl">
      <Stack align="center" gap="lg" ta="center">
        <LogoMark size={56} />
        <Loader type="dots" size="lg" />
        <Text fz="lg" fw={500}>
          Please wait while our robots get your present ready...
        </Text>
      </Stack>
    </Center>
  );
}
