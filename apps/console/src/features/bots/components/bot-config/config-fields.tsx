import { ColorInput, Switch } from '@mantine/core';
import { type ReactNode, useContext } from 'react';
import { ImageUrlField } from '../image-url-field';
import { type ConfigForm, EditedBot } from './config-editor-context';

export function ColourField({ form, path, label }: { form: ConfigForm; path: string; label: string }) {
  return <ColorInput label={label} format="hex" key={form.key(path)} {...form.getInputProps(path)} />;
}

export function FlagField({
  form,
  path,
  label,
  description,
}: {
  form: ConfigForm;
  path: string;
  label: string;
  description?: string;
}) {
  return (
    <Switch
      label={label}
      description={description}
      key={form.key(path)}
      {...form.getInputProps(path, { type: 'checkbox' })}
    />
  );
}

/** An image link of the edited bot, typed or picked from the gallery. */
export function ImageField({
  form,
  path,
  label,
  description,
}: {
  form: ConfigForm;
  path: string;
  label: string;
  description?: string;
}) {
  const props = form.getInputProps(path);
  const botId = useContext(EditedBot);
  return (
    <ImageUrlField
      botId={botId}
      label={label}
      description={description}
      value={String(props.value ?? '')}
      onChange={(value) => form.setFieldValue(path, value)}
      onBlur={() => form.validateField(path)}
      error={props.error as ReactNode}
    />
  );
}
