import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

/** /redirect/:path* : leaves and comes back, so the page at :path remounts (a tab refresh). */
export default function RedirectPage() {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  useEffect(() => {
    const target = pathname.replace(/^\/redirect/, '') || '/';
    navigate(`${target}${search}`, { replace: true });
  }, [navigate, pathname, search]);
  return null;
}
