import type { Index } from '@omnibot/contracts';
import { useKnowledgeBases } from '../../../features/knowledge/api/knowledge-api';
import { useAvailableModels } from '../../../features/models/api/models-api';
import type { IndexFormOption } from '../../../features/indexes/components/index-form';

/**
 * The choices of the index form: the organisation's knowledge bases and the embedding models shared with it
 * (undefined while they load). A stored index's own knowledge bases are always among them, so they show by
 * name at once and even when the list no longer holds them.
 */
export function useIndexFormOptions(index?: Index) {
  const knowledge = useKnowledgeBases();
  const models = useAvailableModels('embedding');

  let knowledgeOptions: IndexFormOption[] | undefined = knowledge.data?.items.map((base) => ({
    value: base.id,
    label: base.name,
  }));
  if (index) {
    const listed = new Set((knowledgeOptions ?? []).map((option) => option.value));
    knowledgeOptions = [
      ...(knowledgeOptions ?? []),
      ...index.knowledge
        .filter((base) => !listed.has(base.id))
        .map((base) => ({ value: base.id, label: base.name })),
    ];
  }
  const embeddingModels: IndexFormOption[] | undefined = models.data?.map((model) => ({
    value: model.id,
    label: model.dimensions
      ? `${model.name} (${model.model_name}, ${model.dimensions} dimensions)`
      : `${model.name} (${model.model_name})`,
  }));
  // A failed load offers no choices instead of loading forever; the page shows loadError.
  return {
    knowledgeOptions: knowledge.isError ? [] : knowledgeOptions,
    embeddingModels: models.isError ? [] : embeddingModels,
    loadError: knowledge.error ?? models.error,
    /** Loads again whichever list failed. */
    retry: () => {
      if (knowledge.isError) void knowledge.refetch();
      if (models.isError) void models.refetch();
    },
  };
}
