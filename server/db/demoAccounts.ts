import { Level } from '../../src/domain/levels';

/** The demo accounts loaded on first start (README lists them). */
export interface DemoAccount {
  name: string;
  password: string;
  nickname: string;
  permissionLevel: Level;
  parent?: string;
  company?: string;
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { name: 'admin', password: 'admin123', nickname: 'Administrator', permissionLevel: Level.Admin },
  {
    name: 'oceanic',
    password: 'oceanic123',
    nickname: 'Oceanic Shipping',
    permissionLevel: Level.Enterprise,
    company: 'Oceanic Shipping Co.',
  },
  { name: 'oceanops', password: 'oceanops123', nickname: 'Oceanic operations', permissionLevel: Level.SubUser, parent: 'oceanic' },
  { name: 'oceanbridge', password: 'bridge123', nickname: 'Oceanic bridge', permissionLevel: Level.SubUser, parent: 'oceanic' },
  {
    name: 'polaris',
    password: 'polaris123',
    nickname: 'Polaris Marine',
    permissionLevel: Level.Enterprise,
    company: 'Polaris Marine Ltd.',
  },
  { name: 'polarisops', password: 'polarisops123', nickname: 'Polaris operations', permissionLevel: Level.SubUser, parent: 'polaris' },
];
