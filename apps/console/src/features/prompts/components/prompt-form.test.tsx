import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderRoute } from '../../../test/render';
import { PromptForm, type PromptFormValues } from './prompt-form';

const START: PromptFormValues = { name: '', description: '', template: 'Answer {{question}}' };

function setup(initial = START) {
  const onSubmit = vi.fn<(values: PromptFormValues) => Promise<boolean>>().mockResolvedValue(true);
  renderRoute(
    <PromptForm initialValues={initial} submitLabel="Save prompt" isSaving={false} onSubmit={onSubmit} />,
  );
  const template = screen.getByRole('textbox', { name: /template/i });
  return { onSubmit, template: template as HTMLTextAreaElement };
}

describe('PromptForm', () => {
  it('names an unknown variable while typing and does not submit', async () => {
    const user = userEvent.setup();
    const { onSubmit, template } = setup();
    await user.type(screen.getByRole('textbox', { name: /name/i }), 'Support');
    fireEvent.change(template, { target: { value: 'Hello {{customer}} and {{question' } });

    expect(
      await screen.findByText(
        /Unknown variable \{\{customer\}\}; use question, context, history, language or bot_name\./,
      ),
    ).toBeInTheDocument();
    expect(screen.getByText(/Malformed placeholder \{\{question/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save prompt' }));
    expect(onSubmit).not.toHaveBeenCalled();

    fireEvent.change(template, { target: { value: 'Hello {{ question }}' } });
    await waitFor(() => expect(screen.queryByText(/Unknown variable/)).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Save prompt' }));
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({
        name: 'Support',
        description: '',
        template: 'Hello {{ question }}',
      }),
    );
  });

  it('refuses an empty name and an empty template', async () => {
    const user = userEvent.setup();
    const { onSubmit, template } = setup();
    fireEvent.change(template, { target: { value: '' } });
    await user.click(screen.getByRole('button', { name: 'Save prompt' }));
    expect(await screen.findByText('The name is required')).toBeInTheDocument();
    expect(screen.getByText('The template is required')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('inserts a variable at the cursor and shows it rendered with a sample value in the preview', async () => {
    const user = userEvent.setup();
    const { template } = setup({ name: 'P', description: '', template: 'Hi  there' });
    template.focus();
    template.setSelectionRange(3, 3);
    await user.click(screen.getByRole('button', { name: 'Insert {{bot_name}}' }));
    expect(template.value).toBe('Hi {{bot_name}} there');
    expect(screen.getByTestId('prompt-preview')).toHaveTextContent('Hi Omnibot there');
  });
});
