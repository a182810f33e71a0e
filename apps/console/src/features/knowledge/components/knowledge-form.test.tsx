import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderRoute } from '../../../test/render';
import { DEFAULT_KNOWLEDGE_VALUES } from '../utils/knowledge-values';
import { KnowledgeForm } from './knowledge-form';

function setup() {
  const onSubmit = vi.fn<(body: unknown) => Promise<boolean>>().mockResolvedValue(true);
  renderRoute(
    <KnowledgeForm
      initialValues={DEFAULT_KNOWLEDGE_VALUES}
      submitLabel="Create knowledge base"
      isSaving={false}
      onSubmit={onSubmit}
    />,
  );
  return { onSubmit };
}

describe('KnowledgeForm', () => {
  it('shows the default chunking and refuses an empty name and a too small chunk size', async () => {
    const user = userEvent.setup();
    const { onSubmit } = setup();
    const words = screen.getByRole('textbox', { name: 'Words per chunk' });
    expect(words).toHaveValue('350');
    expect(screen.getByRole('textbox', { name: 'Overlap (%)' })).toHaveValue('15');

    fireEvent.change(words, { target: { value: '10' } });
    await user.click(screen.getByRole('button', { name: 'Create knowledge base' }));
    expect(await screen.findByText('The name is required')).toBeInTheDocument();
    expect(screen.getByText('The chunk size must be at least 50 words')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('submits the body the API takes, the overlap as a fraction', async () => {
    const user = userEvent.setup();
    const { onSubmit } = setup();
    await user.type(screen.getByRole('textbox', { name: /name/i }), 'Manuals');
    await user.click(screen.getByRole('button', { name: 'Create knowledge base' }));
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({
        name: 'Manuals',
        language: 'english',
        chunking: { target_words: 350, overlap: 0.15 },
      }),
    );
  });
});
