import { useEffect, useState } from 'react';
import { getSession, isExpired, useSession } from '../../lib/session.ts';
import { logout } from '../../lib/logout.ts';
import { notifyInfo } from '../../lib/notify.tsx';

/** setTimeout cannot wait longer than this; longer sessions re-arm the timer when it fires. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** A timer logs out at token expiry. */
export function SessionExpiryTimer() {
  const session = useSession();
  const [rearm, setRearm] = useState(0);
  const token = session?.token;
  const expiration = session?.expiration;

  useEffect(() => {
    if (!token || !expiration) return;
    const wait = Math.min(Math.max(Date.parse(expiration) - Date.now(), 0), MAX_TIMEOUT_MS);
    const id = window.setTimeout(() => {
      const live = getSession();
      if (!live || live.token !== token) return;
      if (!isExpired(live)) {
        setRearm((n) => n + 1);
        return;
      }
      notifyInfo('Your session has expired. Please log in again.');
      void logout();
    }, wait);
    return () => window.clearTimeout(id);
  }, [token, expiration, rearm]);

  return null;
}
