import type { CatalogueAction } from './catalogue';

/** The client announces each catalogue action here; the error host on screen listens. */
type Listener = (action: CatalogueAction) => void;
const listeners = new Set<Listener>();

export function onCatalogueAction(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function emitCatalogueAction(action: CatalogueAction): void {
  if (action.kind === 'none') return;
  for (const listener of listeners) listener(action);
}
