import { lazy, type ComponentType } from 'react';

/**
 * A view override loaded when its page opens: the definition stays light, so the console's first
 * chunk does not carry every resource's own list and forms (App.tsx renders them in Suspense).
 */
export const lazyView = <M, P extends object = object>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>): ComponentType<P> =>
  lazy(() => load().then((module) => ({ default: pick(module) }))) as unknown as ComponentType<P>;
