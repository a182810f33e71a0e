import { describe, expect, it } from 'vitest';
import { canConfigure, ROLE_ABILITIES, ROLES } from './tenancy';

describe('roles', () => {
  it('lets every role but the agent configure, and says so in each role description', () => {
    expect(ROLES.filter(canConfigure)).toEqual(['master', 'administrator', 'user']);
    expect(ROLE_ABILITIES.user).toMatch(/configures bots, integrations, prompts/i);
    expect(ROLE_ABILITIES.agent).toMatch(/answers visitors/i);
    expect(ROLE_ABILITIES.agent).toMatch(/changes no configuration/i);
  });
});
