import type { CSSProperties } from 'react';
import { useTranslate } from 'ra-core';
import { pageTitle } from '../../i18n/pageTitle';

/** Read by screen readers, not drawn (MUI's visuallyHidden). */
export const VISUALLY_HIDDEN: CSSProperties = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: 1,
  margin: -1,
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: 1,
};

/**
 * The page's one h1 (one h1 per page), from its menu title, hidden from sight: react-admin's
 * Title goes to the app bar and the breadcrumb and tab already show the name. actionKey adds
 * the view ("new", "edit"...) for the create, edit and show pages of a resource.
 */
export function PageHeading({
  titleKey,
  title: text,
  actionKey,
  testId = 'page-heading',
}: {
  titleKey?: string;
  title?: string;
  actionKey?: string;
  testId?: string;
}) {
  const translate = useTranslate();
  const title = text ?? (titleKey ? pageTitle(translate, titleKey) : '');
  return (
    <h1 style={VISUALLY_HIDDEN} data-testid={testId}>
      {actionKey ? `${title} · ${translate(actionKey)}` : title}
    </h1>
  );
}
