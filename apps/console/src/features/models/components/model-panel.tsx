import { Badge, Button, Code, Drawer, Group, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type Model, MODEL_KIND_LABELS } from '@omnibot/contracts';
import { IconCpu, IconPencil, IconPlugConnected, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { LoadError } from '../../../components/forms/form-skeleton';
import { ConfirmButton } from '../../../components/ui/confirm';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table';
import { EmptyPanel } from '../../../components/ui/empty-panel';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { PageHeader } from '../../../components/ui/page-header';
import { useDeleteModel, useModels, useTestModel } from '../api/models-api';
import { keyMaskOf } from '../utils/model-form';
import { ModelForm, type OrganisationOption } from './model-form';
import { ModelTestResultAlert, type ModelTestState } from './model-test-result';

interface ModelPanelProps {
  /** The organisations the master reaches, to share models with. */
  organisations: readonly OrganisationOption[];
  organisationsLoading?: boolean;
}

type Editing = { mode: 'new' } | { mode: 'edit'; model: Model } | null;

function sharingText(model: Model, names: Map<string, string>): string {
  if (model.sharing.all) return 'Every organisation';
  if (model.sharing.tenant_ids.length === 0) return 'Your organisation only';
  return model.sharing.tenant_ids.map((id) => names.get(id) ?? id).join(', ');
}

/** /model: the organisation's chat and embedding model connections, added, changed, tested and deleted here. */
export function ModelPanel({ organisations, organisationsLoading }: ModelPanelProps) {
  const models = useModels();
  const remove = useDeleteModel();
  const test = useTestModel();
  const [editing, setEditing] = useState<Editing>(null);
  const [lastTest, setLastTest] = useState<ModelTestState | null>(null);
  const isMobile = useMediaQuery('(max-width: 48em)');
  const names = new Map(organisations.map((option) => [option.value, option.label]));

  const runTest = async (model: Model) => {
    setLastTest({ modelName: model.name, status: 'running' });
    try {
      const result = await test.mutateAsync(model.id);
      setLastTest({ modelName: model.name, status: 'done', result });
    } catch (error) {
      setLastTest(null);
      notifyError(error, 'The connection could not be tested');
    }
  };

  const deleteModel = async (model: Model) => {
    await remove.mutateAsync(model.id);
    notifySuccess(`${model.name} was deleted.`, 'Connection deleted');
  };

  const columns: DataTableColumn<Model>[] = [
    {
      id: 'name',
      header: 'Name',
      sortValue: (row) => row.name,
      render: (row) => (
        <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
          {row.name}
        </Text>
      ),
    },
    {
      id: 'kind',
      header: 'Kind',
      nowrap: true,
      sortValue: (row) => row.kind,
      render: (row) => (
        // The badge keeps its whole word however narrow the column gets.
        <Badge
          variant="light"
          color={row.kind === 'chat' ? 'blue' : row.kind === 'embedding' ? 'grape' : 'teal'}
          style={{ minWidth: 'max-content' }}
        >
          {MODEL_KIND_LABELS[row.kind]}
        </Badge>
      ),
    },
    {
      id: 'base_url',
      header: 'Base URL',
      sortValue: (row) => row.base_url,
      render: (row) => (
        <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {row.base_url}
        </Text>
      ),
    },
    {
      id: 'model_name',
      header: 'Model',
      sortValue: (row) => row.model_name,
      render: (row) => row.model_name,
    },
    {
      id: 'key',
      header: 'API key',
      nowrap: true,
      searchable: false,
      render: (row) => <Code aria-label={`API key of ${row.name}`}>{keyMaskOf(row)}</Code>,
    },
    {
      id: 'sharing',
      header: 'Shared with',
      sortValue: (row) => sharingText(row, names),
      render: (row) => <Text size="sm">{sharingText(row, names)}</Text>,
    },
    {
      id: 'actions',
      header: 'Actions',
      searchable: false,
      render: (row) => (
        <Group gap={6} wrap="wrap" justify={isMobile ? 'flex-end' : 'flex-start'}>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconPlugConnected size={14} />}
            loading={test.isPending && test.variables === row.id}
            disabled={test.isPending && test.variables !== row.id}
            onClick={() => void runTest(row)}
            aria-label={`Test ${row.name}`}
          >
            Test
          </Button>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconPencil size={14} />}
            onClick={() => setEditing({ mode: 'edit', model: row })}
            aria-label={`Edit ${row.name}`}
          >
            Edit
          </Button>
          <ConfirmButton
            size="xs"
            variant="subtle"
            color="red"
            leftSection={<IconTrash size={14} />}
            aria-label={`Delete ${row.name}`}
            confirm={{
              title: `Delete ${row.name}?`,
              message:
                'Indexes and RAGs that use this connection stop using it, and its API key is destroyed. This cannot be undone.',
              confirmLabel: 'Delete connection',
              danger: true,
            }}
            onConfirm={() => deleteModel(row)}
          >
            Delete
          </ConfirmButton>
        </Group>
      ),
    },
  ];

  const addButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ mode: 'new' })}>
      Add connection
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Models"
        description="Chat and embedding models on any OpenAI-compatible endpoint, offered to the organisations you choose."
        actions={addButton}
      />
      <Stack gap="md">
        {lastTest && <ModelTestResultAlert test={lastTest} onClose={() => setLastTest(null)} />}
        {models.isError ? (
          <LoadError
            title="The model connections could not be loaded"
            error={models.error}
            onRetry={() => void models.refetch()}
          />
        ) : (
          <DataTable
            label="Model connections"
            columns={columns}
            data={models.data}
            rowKey={(row) => row.id}
            isLoading={models.isPending}
            searchPlaceholder="Search by name, URL or model"
            initialSort={{ column: 'name', direction: 'asc' }}
            minWidth={960}
            emptyState={
              <EmptyPanel
                icon={<IconCpu size={32} />}
                title="No model connections yet"
                description="Add a connection to a chat model to write answers, or to an embedding model for vector search. Without one, answers are built from your documents' own sentences."
                action={addButton}
              />
            }
          />
        )}
      </Stack>
      <Drawer
        opened={editing !== null}
        onClose={() => setEditing(null)}
        position="right"
        size={isMobile ? '100%' : 'md'}
        title={editing?.mode === 'edit' ? `Edit ${editing.model.name}` : 'Add a model connection'}
      >
        {editing && (
          <ModelForm
            key={editing.mode === 'edit' ? editing.model.id : 'new'}
            model={editing.mode === 'edit' ? editing.model : undefined}
            organisations={organisations}
            organisationsLoading={organisationsLoading}
            onSaved={() => setEditing(null)}
            onCancel={() => setEditing(null)}
          />
        )}
      </Drawer>
    </>
  );
}
