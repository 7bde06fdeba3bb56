import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { getState } from '../state/clientState';

/**
 * /auth-redirect, open to everyone (docs/requirements.md §2): it sends a logged-in
 * user to the page in ?redirect= (or home) and anyone else to the login page.
 */
export default function AuthRedirect() {
  const navigate = useNavigate();
  useEffect(() => {
    const wanted = new URLSearchParams(window.location.search).get('redirect');
    const safe = wanted && wanted.startsWith('/') && !wanted.startsWith('//') ? wanted : '/';
    navigate(getState().token ? safe : `/login?redirect=${encodeURIComponent(safe)}`, { replace: true });
  }, [navigate]);
  return null;
}
