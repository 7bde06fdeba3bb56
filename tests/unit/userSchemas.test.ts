import { describe, expect, it } from 'vitest';
import { addUserSchema, passwordChangeSchema } from '../../src/domain/userSchemas';
import { validate } from '../../src/domain/validate';
import { domainMessages, translateDomain } from '../../src/domain/messages';

const messagesOf = (result: ReturnType<typeof validate>, lang: 'zh' | 'en' = 'zh') =>
  result.ok ? {} : Object.fromEntries(result.errors.map((e) => [e.field, translateDomain(lang, e.message)]));

const valid = { name: 'skipper', password: 'secret1', repassword: 'secret1', permissionLevel: '2' };

describe('user rules of docs/requirements.md §5', () => {
  it('accepts 2 to 16 lowercase letters as a username and nothing else', () => {
    for (const name of ['ab', 'abcdefghijklmnop']) expect(validate(addUserSchema, { ...valid, name }).ok).toBe(true);
    for (const name of ['a', 'abcdefghijklmnopq', 'Skipper', 'skip per', 'skip1', '船长']) {
      expect(messagesOf(validate(addUserSchema, { ...valid, name })).name).toBe('用户名必须是由2-16位小写字母组成');
    }
    expect(messagesOf(validate(addUserSchema, { ...valid, name: '' })).name).toBe('用户名不能为空');
  });

  it('accepts an empty email and refuses a malformed one', () => {
    expect(validate(addUserSchema, { ...valid, email: '' }).ok).toBe(true);
    expect(validate(addUserSchema, { ...valid, email: 'ops@fleet.example' }).ok).toBe(true);
    expect(messagesOf(validate(addUserSchema, { ...valid, email: 'ops@' })).email).toBe('请输入正确的邮箱');
  });

  it('requires a password of 6 to 18 characters, in both languages', () => {
    for (const password of ['12345', 'x'.repeat(19), '']) {
      const result = validate(passwordChangeSchema, { password, repassword: password });
      expect(messagesOf(result).password).toBe('密码长度为6-18位');
      expect(messagesOf(result, 'en').password).toBe('Password length should be between 6 and 18 characters');
    }
    expect(validate(passwordChangeSchema, { password: '123456', repassword: '123456' }).ok).toBe(true);
    expect(validate(passwordChangeSchema, { password: 'x'.repeat(18), repassword: 'x'.repeat(18) }).ok).toBe(true);
  });

  it('requires the confirmation to match', () => {
    const result = validate(passwordChangeSchema, { password: 'secret1', repassword: 'secret2' });
    expect(messagesOf(result, 'en').repassword).toBe('The entered passwords are inconsistent');
  });

  it('requires an enterprise for a sub-user', () => {
    expect(messagesOf(validate(addUserSchema, { ...valid, permissionLevel: '3' }), 'en').parentId).toBe(
      'A sub-user must belong to an enterprise user',
    );
    expect(validate(addUserSchema, { ...valid, permissionLevel: '3', parentId: 2 }).ok).toBe(true);
  });

  it('has every domain message in both languages with the required message of the catalogue', () => {
    expect(Object.keys(domainMessages.en).sort()).toEqual(Object.keys(domainMessages.zh).sort());
    expect(domainMessages.zh['validation.required']).toBe('必填项');
    expect(domainMessages.en['validation.required']).toBe('required');
  });
});
