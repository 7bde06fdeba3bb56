import { describe, expect, it } from 'vitest';
import { showItems } from '../../src/resources/generic/showItems';
import type { ResourceDefinition } from '../../src/resources/types';
import { crewCertificatesResource } from '../fixtures/extension/crewCertificates/definition';

/** What the generic Show page lists for a declared entity (docs/extending.md). */
describe('the Show page of a declared entity', () => {
  const items = showItems(crewCertificatesResource as ResourceDefinition);

  it('shows each field once, in the form order, the vessel drawn by its name column', () => {
    expect(items.map((i) => i.source)).toEqual(['deviceId', 'holder', 'kind', 'number', 'issuedOn', 'expiresOn', 'remarks']);
    expect(items[0]!.column.source).toBe('deviceName');
  });

  it('keeps the sections of the fields', () => {
    expect(items.filter((i) => i.section).map((i) => i.source)).toEqual(['issuedOn', 'expiresOn']);
  });
});
