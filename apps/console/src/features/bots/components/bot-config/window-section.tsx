import { NumberInput, SimpleGrid } from '@mantine/core';
import type { ConfigForm } from './config-editor-context';

/** The size of the chat window. */
export function WindowSection({ form }: { form: ConfigForm }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <NumberInput
        label="Width (px)"
        description="280 to 1200; the window fills small screens."
        allowDecimal={false}
        key={form.key('window.width')}
        {...form.getInputProps('window.width')}
      />
      <NumberInput
        label="Height (px)"
        description="400 to 1600"
        allowDecimal={false}
        key={form.key('window.height')}
        {...form.getInputProps('window.height')}
      />
    </SimpleGrid>
  );
}
