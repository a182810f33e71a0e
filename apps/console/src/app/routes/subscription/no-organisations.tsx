import { Button } from '@mantine/core';
import { IconBuildingCommunity, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EmptyPanel } from '../../../components/ui/empty-panel';
import { paths } from '../../../config/paths';

/** The subscription screens act on client organisations: without any, say how to get one. */
export function NoOrganisations() {
  return (
    <EmptyPanel
      icon={<IconBuildingCommunity size={32} />}
      title="No client organisations yet"
      description="Subscriptions are passed on to client organisations. Create one first."
      action={
        <Button component={Link} to={paths.tenant.add} leftSection={<IconPlus size={16} />}>
          Add organisation
        </Button>
      }
    />
  );
}
