import { useEffect } from 'react';
import { AppShell, Box, Burger, Group } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Outlet, useLocation } from 'react-router';
import { CustomEmojiProvider } from '../../entities/workspace/index.ts';
import { Logo, LogoMark } from '../../components/Logo.tsx';
import { updateSessionProfile, useSession } from '../../lib/session.ts';
import { meQuery } from '../../features/auth/api/me.ts';
import { Sidebar } from './Sidebar.tsx';
import { TopBar } from './TopBar.tsx';
import { LoginLoads } from './LoginLoads.tsx';
import { WorkspaceBanners } from './WorkspaceBanners.tsx';

/** The signed-in frame: top bar and sidebar around the current page. */
export function DashboardLayout() {
  const session = useSession();
  const [navOpen, nav] = useDisclosure(false);
  const location = useLocation();

  // Keep the stored profile and workspace list fresh; a revoked or expired token answers 401 and logs out.
  const me = useQuery({ ...meQuery(session?.token ?? ''), enabled: Boolean(session) });
  useEffect(() => {
    if (me.data) updateSessionProfile(me.data);
  }, [me.data]);

  // Going to another page closes the phone's navigation. `nav` is a new object on every render: depending on it
  // closed the navigation as soon as the burger opened it.
  const closeNav = nav.close;
  useEffect(() => closeNav(), [location.pathname, closeNav]);

  return (
    <AppShell
      header={{ height: 64 }}
      navbar={{ width: 248, breakpoint: 'sm', collapsed: { mobile: !navOpen } }}
      padding={{ base: 'md', sm: 'xl' }}
      styles={{ main: { background: 'var(--mantine-color-gray-0)' } }}
    >
      <LoginLoads />
      <a
        href="#main-content"
        className="skip-link"
        onClick={(e) => {
          // Focus moves into the page (a hash change alone would leave the keyboard in the header).
          e.preventDefault();
          document.getElementById('main-content')?.focus();
        }}
      >
        Skip to main content
      </a>
      <AppShell.Header px="md">
        <Group h="100%" gap="md" wrap="nowrap">
          <Group w={{ base: 'auto', sm: 216 }} gap="sm" wrap="nowrap">
            <Burger
              opened={navOpen}
              onClick={nav.toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label="Toggle navigation"
            />
            <Box hiddenFrom="sm" style={{ display: 'flex' }}>
              <LogoMark size={28} />
            </Box>
            <Box visibleFrom="sm">
              <Logo size={28} />
            </Box>
          </Group>
          <Box style={{ flex: 1, minWidth: 0 }}>
            <TopBar />
          </Box>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="md" aria-label="Main">
        <Sidebar />
      </AppShell.Navbar>
      <AppShell.Main id="main-content" tabIndex={-1} style={{ outline: 'none' }}>
        <Box maw={1280} mx="auto">
          <WorkspaceBanners withImport={location.pathname === '/dashboard/home'} />
          <CustomEmojiProvider>
            <Outlet />
          </CustomEmojiProvider>
        </Box>
      </AppShell.Main>
    </AppShell>
  );
}
