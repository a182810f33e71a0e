import { describe, expect, it } from 'vitest';
import { CreateAccountBodySchema, UserListQuerySchema } from './accounts';
import { RegisterBodySchema, SignInBodySchema } from './auth';
import { FileNameSchema, RenameBodySchema } from './files';
import { isSafeText, SAFE_TEXT_MESSAGE, SafeTextSchema } from './text';

const UNSAFE = ['a\u0000b', '\u0000', 'x\ud800', '\ud800y', 'z\udc00', '\udc00\ud800'];
const SAFE = ['', 'plain', 'Ärger – ünïcödé', '😀 paired surrogates', '\ud83d\ude00', 'line\nbreak'];

describe('safe text', () => {
  it.each(UNSAFE.map((text) => [JSON.stringify(text), text]))('refuses %s, never rewrites it', (_, text) => {
    expect(isSafeText(text)).toBe(false);
    const result = SafeTextSchema.safeParse(text);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(SAFE_TEXT_MESSAGE);
  });

  it.each(SAFE.map((text) => [JSON.stringify(text), text]))('accepts %s unchanged', (_, text) => {
    expect(isSafeText(text)).toBe(true);
    expect(SafeTextSchema.parse(text)).toBe(text);
  });

  it('guards the text fields of the forms the console shares with the server', () => {
    const refused = [
      CreateAccountBodySchema.safeParse({ name: 'a\u0000', subscriptions: ['omnirag'] }),
      CreateAccountBodySchema.safeParse({
        name: 'x',
        address: { city: '\ud800' },
        subscriptions: ['omnirag'],
      }),
      UserListQuerySchema.safeParse({ q: 'a\u0000' }),
      SignInBodySchema.safeParse({ email: 'a@example.com', password: 'pw\ud800' }),
      RegisterBodySchema.safeParse({ email: 'a@example.com', password: 'Long-enough-pw-1', name: '\udc00' }),
      RenameBodySchema.safeParse({ path: 'a\u0000', name: 'b' }),
      FileNameSchema.safeParse('report\ud800.pdf'),
    ];
    expect(refused.map((result) => result.success)).toEqual(refused.map(() => false));
    expect(CreateAccountBodySchema.safeParse({ name: 'Ünï 😀', subscriptions: ['omnirag'] }).success).toBe(
      true,
    );
  });
});
