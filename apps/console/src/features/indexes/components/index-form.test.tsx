import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { EMBEDDING_MODEL, KB_FAQ, KB_MANUALS } from '../../../test/index-fixture';
import { renderRoute } from '../../../test/render';
import { DEFAULT_INDEX_VALUES } from '../utils/index-values';
import { IndexForm, type IndexFormOption } from './index-form';

const KNOWLEDGE: IndexFormOption[] = [
  { value: KB_MANUALS, label: 'Manuals' },
  { value: KB_FAQ, label: 'FAQ' },
];
const MODELS: IndexFormOption[] = [{ value: EMBEDDING_MODEL, label: 'Small embeddings' }];

function setup({
  knowledge = KNOWLEDGE,
  models = MODELS,
  onSubmit = vi.fn<(body: unknown) => Promise<void>>().mockResolvedValue(undefined),
}: {
  knowledge?: IndexFormOption[];
  models?: IndexFormOption[];
  onSubmit?: (body: unknown) => Promise<void>;
} = {}) {
  renderRoute(
    <IndexForm
      initialValues={DEFAULT_INDEX_VALUES}
      knowledgeOptions={knowledge}
      embeddingModels={models}
      submitLabel="Create index"
      isSaving={false}
      failureTitle="The index was not created"
      onSubmit={onSubmit}
    />,
  );
  return { onSubmit, user: userEvent.setup() };
}

const modeRadio = (name: string) => screen.getByRole('radio', { name: new RegExp(`^${name}`) });

async function chooseKnowledge(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.click(screen.getByRole('combobox', { name: /knowledge bases/i }));
  await user.click(await screen.findByRole('option', { name }));
}

async function chooseModel(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('combobox', { name: 'Embedding model' }));
  await user.click(await screen.findByRole('option', { name: 'Small embeddings' }));
}

describe('IndexForm', () => {
  it("refuses a nameless index without knowledge bases with the contract's messages", async () => {
    const { onSubmit, user } = setup();
    await user.click(screen.getByRole('button', { name: 'Create index' }));
    expect(await screen.findByText('The name is required')).toBeInTheDocument();
    expect(screen.getByText('Choose at least one knowledge base')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('refuses a top k beyond the limit', async () => {
    const { onSubmit, user } = setup();
    const topK = screen.getByRole('textbox', { name: 'Results (top k)' });
    await user.clear(topK);
    await user.type(topK, '51');
    await user.click(screen.getByRole('button', { name: 'Create index' }));
    expect(await screen.findByText('The number of results must be at most 50')).toBeInTheDocument();
    await user.clear(topK);
    await user.click(screen.getByRole('button', { name: 'Create index' }));
    expect(await screen.findByText('Enter the number of results')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('offers vector and hybrid only once an embedding model is chosen, and falls back to keyword without one', async () => {
    const { user } = setup();
    expect(modeRadio('Keyword')).toBeChecked();
    expect(modeRadio('Vector')).toBeDisabled();
    expect(modeRadio('Hybrid')).toBeDisabled();
    expect(screen.getByText(/Keyword scores are BM25/)).toBeInTheDocument();

    await chooseModel(user);
    expect(modeRadio('Vector')).toBeEnabled();
    await user.click(modeRadio('Hybrid'));
    expect(modeRadio('Hybrid')).toBeChecked();
    expect(screen.getByText(/Hybrid scores are the fused rank/)).toBeInTheDocument();

    // Picking the chosen model again deselects it, which takes vector retrieval away again.
    await chooseModel(user);
    expect(screen.getByRole('combobox', { name: 'Embedding model' })).toHaveValue('');
    expect(modeRadio('Keyword')).toBeChecked();
    expect(modeRadio('Hybrid')).toBeDisabled();
  });

  it('submits the body the API takes', async () => {
    const { onSubmit, user } = setup();
    await user.type(screen.getByRole('textbox', { name: /name/i }), 'Support search');
    await chooseKnowledge(user, 'FAQ');
    await chooseModel(user);
    await user.click(modeRadio('Vector'));
    await user.click(screen.getByRole('button', { name: 'Create index' }));
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({
        name: 'Support search',
        knowledge_ids: [KB_FAQ],
        mode: 'vector',
        top_k: 5,
        score_threshold: 0,
        embedding_model_id: EMBEDDING_MODEL,
      }),
    );
  });

  it("puts the API's refusal on the field it is about", async () => {
    const onSubmit = vi
      .fn<(body: unknown) => Promise<void>>()
      .mockRejectedValue(
        new ApiError(409, 'index/name-taken', 'Another index of your organisation already has this name.'),
      );
    const { user } = setup({ onSubmit });
    await user.type(screen.getByRole('textbox', { name: /name/i }), 'Support search');
    await chooseKnowledge(user, 'Manuals');
    await user.click(screen.getByRole('button', { name: 'Create index' }));
    const name = screen.getByRole('textbox', { name: /name/i });
    await waitFor(() => expect(name).toHaveAccessibleDescription(/already has this name/));
    expect(name).toHaveAttribute('aria-invalid', 'true');
  });

  it('tells the user what to do when there is no knowledge base and no embedding model', () => {
    setup({ knowledge: [], models: [] });
    expect(screen.getByRole('link', { name: 'Create a knowledge base' })).toHaveAttribute(
      'href',
      '/knowledge/add',
    );
    expect(screen.getByText(/A master administrator must share one on the Model page/)).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Embedding model' })).toBeDisabled();
  });
});
