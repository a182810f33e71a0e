import { Alert, Stack, TextInput } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import type { ConfigForm } from './config-editor-context';
import { FlagField } from './config-fields';
import { ServiceTestButton } from './service-test-button';

/**
 * Visitor geolocation: off unless switched on; the service speaks the geojs protocol. The privacy note says what is
 * sent where, because the visitor's address leaves the installation.
 */
export function GeolocationSection({ form }: { form: ConfigForm }) {
  const { enabled, url } = form.getValues().geojs;
  return (
    <Stack gap="sm">
      <FlagField
        form={form}
        path="geojs.enabled"
        label="Look up the visitor's country"
        description="Shown in the conversation log and the agent inbox, and passed to the bot engine."
      />
      <TextInput
        label="Geolocation service"
        description="A service speaking the geojs protocol (/v1/ip/country/{ip}.json), e.g. https://get.geojs.io or your own."
        placeholder="https://get.geojs.io"
        disabled={!enabled}
        key={form.key('geojs.url')}
        {...form.getInputProps('geojs.url')}
      />
      <ServiceTestButton form={form} service="geolocation" />
      <Alert color={enabled ? 'yellow' : 'gray'} icon={<IconShieldLock />} title="Privacy" variant="light">
        {enabled
          ? `When a conversation starts, this server sends the visitor's IP address (nothing else) to ${url || 'the geolocation service'} and stores only the country it answers with the conversation. Name this in your privacy notice.`
          : "Off: no visitor's address is sent anywhere and conversations have no country."}
      </Alert>
    </Stack>
  );
}
