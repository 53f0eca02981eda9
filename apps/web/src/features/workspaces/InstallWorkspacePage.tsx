import { useEffect } from 'react';
import { Box, Center, Loader, Paper, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { LogoMark } from '../../components/Logo.tsx';
import { ApiError, errorMessage } from '../../lib/api-client.ts';
import { notifyFailure, notifyInfo } from '../../lib/notify.tsx';
import { applyInstalledWorkspaces, getSession } from '../../lib/session.ts';
import { completeInstallOnce } from './api/auth-redirect.ts';

const HOME = '/dashboard/home';

export const INSTALL_WAIT_TEXT = 'Please wait while our robots get your present ready...';
export const INSTALL_CANCELLED_TEXT = 'You cancelled the installation in Slack.';
export const INSTALL_NO_CODE_TEXT =
  'Slack did not send an authorization code. Start again from Create Workspace.';

/** A link without its state, or one the server cannot read: what happened, in the user's words. */
export const INSTALL_EXPIRED_TEXT =
  'This Slack link has expired or was already used. Start again from Create Workspace.';

/** The server's failure as the toast says it: its own words, except a malformed link's field errors. */
function installFailureText(err: unknown): string {
  if (err instanceof ApiError && err.code === 'VALIDATION_ERROR') return INSTALL_EXPIRED_TEXT;
  return errorMessage(err);
}

/** Slack's ?error=... when the user did not allow the app (Cancel on the authorize page gives access_denied). */
function slackErrorText(error: string): string {
  if (error === 'access_denied') return INSTALL_CANCELLED_TEXT;
  return `Slack did not complete the installation (${error}). Please try again.`;
}

/**
 * /installworkspace: Slack's authorize page comes back here with ?code=&state= (or ?error=). The code is
 * exchanged once through POST /auth-redirect; success stores the workspaces, selects the new one and shows the
 * server's message ('Attention'); failure shows 'Failure'. Either way the user goes home, replacing history
 * (a user still without a workspace lands on create-dashboard).
 */
export function InstallWorkspacePage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const code = params.get('code') ?? '';
  const state = params.get('state') ?? '';
  const error = params.get('error') ?? '';

  useEffect(() => {
    let active = true;
    const finish = () => navigate(HOME, { replace: true });

    if (error || !code || !state) {
      // Deferred a tick so strict mode's throw-away first mount does not toast twice.
      const timer = setTimeout(() => {
        notifyFailure(error ? slackErrorText(error) : !code ? INSTALL_NO_CODE_TEXT : INSTALL_EXPIRED_TEXT);
        finish();
      }, 0);
      return () => clearTimeout(timer);
    }

    const session = getSession();
    completeInstallOnce({ code, state, id: session?.userid ?? '', email: session?.useremail ?? '' }).then(
      (res) => {
        if (!active) return;
        applyInstalledWorkspaces(res.workspaces);
        // Cached profile or workspace data predates the install: drop it so nothing old overwrites the new list.
        queryClient.removeQueries({ queryKey: ['auth', 'me'] });
        void queryClient.invalidateQueries({ queryKey: ['workspace'] });
        notifyInfo(res.message, 'Attention');
        finish();
      },
      (err: unknown) => {
        if (!active) return;
        notifyFailure(installFailureText(err));
        finish();
      },
    );
    return () => {
      active = false;
    };
  }, [code, state, error, navigate, queryClient]);

  return (
    <Center
      mih="100vh"
      p="xl"
      style={{
        background:
          'radial-gradient(circle at 50% 0%, var(--mantine-color-brand-0), var(--mantine-color-gray-0) 60%)',
      }}
    >
      <Paper withBorder shadow="sm" radius="lg" p={{ base: 'xl', sm: 48 }} maw={480} w="100%">
        <Stack align="center" gap="lg" ta="center" role="status" aria-live="polite">
          <Box pos="relative" w={88} h={88} style={{ display: 'grid', placeItems: 'center' }}>
            <Loader size={88} type="oval" pos="absolute" inset={0} color="brand.3" aria-hidden />
            <LogoMark size={48} />
          </Box>
          <Stack gap={6}>
            <Text fz="lg" fw={600}>
              {INSTALL_WAIT_TEXT}
            </Text>
            <Text fz="sm" c="dimmed">
              Connecting your Slack workspace to Flywheel. This only takes a moment.
            </Text>
          </Stack>
          <Loader type="dots" size="md" role="status" aria-label="Connecting workspace" />
        </Stack>
      </Paper>
    </Center>
  );
}
