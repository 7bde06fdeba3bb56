// Shared set-up of the console's jsdom tests.
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { loadMessages } from '../../src/i18n/messages';

// The console loads its language's catalogue before the first render (main.tsx); tests render in both.
await Promise.all([loadMessages('zh'), loadMessages('en')]);
// findBy/waitFor wait up to 5 s, not 1: in the full run these files share the 2 cores with the
// server tests, and a render that takes longer there is slow, not wrong.
configure({ asyncUtilTimeout: 5000 });
// Chunks the console prefetches on mount (the login rules, the error dialogs) are loaded here once, so
// a prefetch started by a test never resolves after that file's environment has been torn down.
await Promise.all([import('../../src/pages/login/loginRules'), import('../../src/layout/ErrorCatalogueView')]);

afterEach(() => {
  cleanup();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
  localStorage.clear();
  sessionStorage.clear();
});
