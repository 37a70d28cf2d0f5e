/** What a start says about the generated admin password: printed when made, and where it is kept until the first sign-in. */
import { describe, expect, it } from 'vitest';
import { adminPasswordLines } from './prepare';

describe('adminPasswordLines', () => {
  it('is shown when made; until the first sign-in, every start says where it is and how to make another', () => {
    const file = '/data/secrets/initial-admin-password';
    const made = adminPasswordLines({
      adminUser: 'admin',
      adminPasswordSource: 'generated',
      generatedPassword: 'pw-123',
      initialPasswordFile: file,
    });
    expect(made.join('\n')).toContain('for user "admin":   pw-123');
    expect(made.join('\n')).toContain(`kept in ${file}`);
    expect(made.join('\n')).toContain('npx quin admin reset-password');
    const later = adminPasswordLines({
      adminUser: 'admin',
      adminPasswordSource: 'generated',
      generatedPassword: null,
      initialPasswordFile: file,
    });
    expect(later.join('\n')).toContain(`Nobody has signed in yet: the generated admin password (user "admin") is in ${file}`);
    expect(later.join('\n')).toContain('npx quin admin reset-password');
    expect(
      adminPasswordLines({ adminUser: 'admin', adminPasswordSource: 'generated', generatedPassword: null, initialPasswordFile: null }),
    ).toEqual([]);
    expect(
      adminPasswordLines({ adminUser: 'admin', adminPasswordSource: 'config', generatedPassword: null, initialPasswordFile: null }),
    ).toEqual([]);
  });
});
