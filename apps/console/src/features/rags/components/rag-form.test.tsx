import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { stubAuthApi } from '../../../test/fake-auth-api';
import { fill } from '../../../test/fill';
import { INDEX_ID, MODEL_ID, optionsHandler, PROMPT_ID } from '../../../test/rag-fixture';
import { renderRoute } from '../../../test/render';
import { DEFAULT_RAG_VALUES } from '../utils/rag-values';
import { RagForm } from './rag-form';

function setup(
  onSubmit = vi.fn<(body: unknown) => Promise<void>>().mockResolvedValue(undefined),
  indexes?: unknown[],
) {
  stubAuthApi({ signedIn: true, handle: optionsHandler(indexes) });
  renderRoute(
    <RagForm
      initialValues={DEFAULT_RAG_VALUES}
      submitLabel="Create RAG"
      failureTitle="The RAG was not created"
      isSaving={false}
      onSubmit={onSubmit}
    />,
  );
  return { onSubmit };
}

const pick = async (user: ReturnType<typeof userEvent.setup>, label: RegExp, option: string) => {
  await user.click(screen.getByRole(label.source === '^name' ? 'textbox' : 'combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
};

describe('RagForm', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the defaults and says that without a chat model answers are extractive', () => {
    setup();
    expect(screen.getByRole('textbox', { name: /fallback text/i })).toHaveValue(
      DEFAULT_RAG_VALUES.fallback_text,
    );
    expect(screen.getByRole('textbox', { name: /max context/i })).toHaveValue('6000');
    expect(screen.getByRole('switch', { name: /cite sources/i })).toBeChecked();
    expect(
      screen.getByText(/without one, answers are sentences taken from the sources \(extractive\)/i),
    ).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: /prompt/i })).toHaveAttribute(
      'placeholder',
      'Built-in default prompt',
    );
  });

  it('refuses an empty name, no index, an empty fallback and a too small context before sending', async () => {
    const user = userEvent.setup();
    const { onSubmit } = setup();
    fireEvent.change(screen.getByRole('textbox', { name: /fallback text/i }), { target: { value: ' ' } });
    fireEvent.change(screen.getByRole('textbox', { name: /max context/i }), { target: { value: '100' } });
    await user.click(screen.getByRole('button', { name: 'Create RAG' }));
    expect(await screen.findByText('The name is required')).toBeInTheDocument();
    expect(screen.getByText('Choose the index the RAG answers from')).toBeInTheDocument();
    expect(screen.getByText('The fallback text is required')).toBeInTheDocument();
    expect(screen.getByText('The context size must be at least 500 characters')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('submits the body the API takes, with the chosen index, prompt, model and language', async () => {
    const user = userEvent.setup();
    const { onSubmit } = setup();
    await fill(user, screen.getByRole('textbox', { name: /^name/i }), 'Support answers');
    await pick(user, /^index/i, 'Manuals index');
    await pick(user, /^prompt/i, 'Help desk');
    await pick(user, /chat model/i, 'House model (gpt-test)');
    await pick(user, /answer language/i, 'German');
    await user.click(screen.getByRole('switch', { name: /cite sources/i }));
    await user.click(screen.getByRole('button', { name: 'Create RAG' }));
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({
        name: 'Support answers',
        index_id: INDEX_ID,
        prompt_id: PROMPT_ID,
        model_id: MODEL_ID,
        citations: false,
        fallback_text: DEFAULT_RAG_VALUES.fallback_text,
        max_context_chars: 6000,
        language: 'German',
      }),
    );
  });

  it.each([
    ['rag/name-taken', 'Another RAG of your organisation already has this name.', /^name/i],
    ['rag/unknown-index', 'The index does not exist in your organisation.', /^index/i],
    ['rag/unknown-model', 'The chat model is not offered to your organisation.', /chat model/i],
  ] as const)('shows the refusal %s on its field', async (code, message, label) => {
    const user = userEvent.setup();
    const onSubmit = vi
      .fn<(body: unknown) => Promise<void>>()
      .mockRejectedValue(new ApiError(400, code, message));
    setup(onSubmit);
    await fill(user, screen.getByRole('textbox', { name: /^name/i }), 'Support answers');
    await pick(user, /^index/i, 'Manuals index');
    await user.click(screen.getByRole('button', { name: 'Create RAG' }));
    const field = screen.getByRole(label.source === '^name' ? 'textbox' : 'combobox', { name: label });
    await waitFor(() => expect(field).toHaveAccessibleDescription(expect.stringContaining(message)));
    expect(field).toHaveAttribute('aria-invalid', 'true');
  });

  it('says to create an index first when the organisation has none', async () => {
    setup(undefined, []);
    expect(await screen.findByText('Create an index first')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create an index' })).toHaveAttribute('href', '/index');
  });
});
