import { LocalKey } from './storageKeys';

/**
 * Remembered login (auto-login box). The password is never kept in plain text nor in a cookie:
 * it is encrypted with AES-GCM under a key generated in this browser with `extractable: false`
 * and kept in IndexedDB, so page scripts can use the key but never read it out. Local storage
 * holds only the name, the flag and iv+ciphertext. See docs/console.md.
 */
const DB_NAME = 'fleet-console';
const STORE = 'keys';
const KEY_ID = 'remembered-login';

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    if (typeof indexedDB === 'undefined') return reject(new Error('no IndexedDB'));
    const open = indexedDB.open(DB_NAME, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(STORE);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
}

async function idb<T>(mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest): Promise<T> {
  const db = await openDb();
  try {
    return await new Promise<T>((resolve, reject) => {
      const req = run(db.transaction(STORE, mode).objectStore(STORE));
      req.onsuccess = () => resolve(req.result as T);
      req.onerror = () => reject(req.error);
    });
  } finally {
    db.close();
  }
}

async function getKey(create: boolean): Promise<CryptoKey | null> {
  const existing = await idb<CryptoKey | undefined>('readonly', (s) => s.get(KEY_ID));
  if (existing || !create) return existing ?? null;
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  await idb('readwrite', (s) => s.put(key, KEY_ID));
  return key;
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

export interface RememberedLogin {
  name: string;
  password: string;
}

export async function rememberLogin(name: string, password: string): Promise<boolean> {
  try {
    const key = await getKey(true);
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const cipher = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key!, new TextEncoder().encode(password)));
    localStorage.setItem(LocalKey.autoLogin, '1');
    localStorage.setItem(LocalKey.rememberedName, name);
    localStorage.setItem(LocalKey.rememberedSecret, `${toBase64(iv)}.${toBase64(cipher)}`);
    return true;
  } catch {
    forgetLogin();
    return false;
  }
}

export function forgetLogin(): void {
  localStorage.removeItem(LocalKey.autoLogin);
  localStorage.removeItem(LocalKey.rememberedName);
  localStorage.removeItem(LocalKey.rememberedSecret);
}

export const isLoginRemembered = (): boolean => localStorage.getItem(LocalKey.autoLogin) === '1';

export async function recallLogin(): Promise<RememberedLogin | null> {
  const name = localStorage.getItem(LocalKey.rememberedName);
  const secret = localStorage.getItem(LocalKey.rememberedSecret);
  if (!isLoginRemembered() || !name || !secret) return null;
  try {
    const [iv, cipher] = secret.split('.').map(fromBase64);
    const key = await getKey(false);
    if (!key || !iv || !cipher) return null;
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, key, cipher);
    return { name, password: new TextDecoder().decode(plain) };
  } catch {
    return null;
  }
}
