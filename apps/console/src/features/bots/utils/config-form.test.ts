import { maskedWidgetConfig, WidgetConfigSchema } from '@omnibot/contracts';
import { describe, expect, it } from 'vitest';
import { configErrors, configPatchOf, errorWithin, groupHasError, previewConfigOf } from './config-form';

const defaults = () => WidgetConfigSchema.parse({});

describe('configErrors', () => {
  it('is empty for a valid configuration and places each message on its field', () => {
    expect(configErrors(defaults())).toEqual({});
    const config = defaults();
    config.identity.description = 'x'.repeat(166);
    config.appearance.userBubble.backgroundColor = 'url(javascript:1)';
    config.welcome.welcomeMenu = [{ label: '', text: 'Hello' }];
    const errors = configErrors(config);
    expect(errors['identity.description']).toBe('The description has at most 165 characters.');
    expect(errors['appearance.userBubble.backgroundColor']).toMatch(/^A colour is #rgb/);
    expect(errors['welcome.welcomeMenu.0.label']).toBe('A menu item needs a label.');
    expect(groupHasError(errors, 'welcome')).toBe(true);
    expect(groupHasError(errors, 'titles')).toBe(false);
    expect(errorWithin(errors, 'welcome.welcomeMenu')).toBe('A menu item needs a label.');
    expect(errorWithin(errors, 'welcome.popupMenu')).toBeUndefined();
  });
});

describe('configPatchOf', () => {
  it('sends only the changed groups, whole, with masked secrets as received', () => {
    const stored = defaults();
    stored.openai.apiKey = 'sk-0123456789abcdefXYZW';
    const initial = maskedWidgetConfig(stored);
    const values = structuredClone(initial);
    values.openai.temperature = 0.2;
    values.titles.sendTitle = 'Go';
    const patch = configPatchOf(values, initial);
    expect(Object.keys(patch).sort()).toEqual(['openai', 'titles']);
    expect(patch.openai).toMatchObject({ temperature: 0.2, apiKey: '****XYZW' });
    expect(patch.titles).toEqual({ ...initial.titles, sendTitle: 'Go' });
    expect(configPatchOf(values, initial, ['identity'])).toEqual({});
  });
});

describe('previewConfigOf', () => {
  it('is the public projection without services, or null while the values are invalid', () => {
    const config = defaults();
    config.openai.apiKey = 'sk-secret-value-1234';
    const preview = previewConfigOf(config);
    expect(preview?.services).toEqual({ translate: false, tts: false });
    expect(JSON.stringify(preview)).not.toContain('sk-secret');
    config.window.width = 10;
    expect(previewConfigOf(config)).toBeNull();
  });
});
