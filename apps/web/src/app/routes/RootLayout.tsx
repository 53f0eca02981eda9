import { Outlet, ScrollRestoration } from 'react-router';
import { SessionExpiryTimer } from './SessionExpiryTimer.tsx';

export function RootLayout() {
  return (
    <>
      <SessionExpiryTimer />
      <ScrollRestoration />
      <Outlet />
    </>
  );
}
