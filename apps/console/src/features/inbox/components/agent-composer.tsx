import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { AGENT_TEXT_MAX, AgentMessageBodySchema } from '@omnibot/contracts';
import { IconSend } from '@tabler/icons-react';
import { useRef, useState, type KeyboardEvent } from 'react';
import { notifyError } from '../../../components/ui/notify';
import { inboxApi, useSendAgentMessage } from '../api/inbox-api';

/** While the agent types, the visitor is told so at most every 3 s. */
const TYPING_EVERY_MS = 3000;

/** The agent's reply box: Enter sends, Shift+Enter starts a new line; the text is checked as the server checks it. */
export function AgentComposer({ conversationId }: { conversationId: string }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const lastTypingRef = useRef(0);
  const send = useSendAgentMessage(conversationId);

  const onChange = (value: string) => {
    setText(value);
    if (error) setError(null);
    const now = Date.now();
    if (value.trim() && now - lastTypingRef.current >= TYPING_EVERY_MS) {
      lastTypingRef.current = now;
      // Typing is a hint to the visitor; a lost one is not worth a message.
      void inboxApi.typing(conversationId).catch(() => undefined);
    }
  };

  const submit = async () => {
    if (send.isPending) return;
    const parsed = AgentMessageBodySchema.safeParse({ text });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'The text cannot be sent.');
      return;
    }
    try {
      await send.mutateAsync(parsed.data);
      setText('');
      lastTypingRef.current = 0;
    } catch (failure) {
      notifyError(failure, 'The message was not sent');
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // An Enter that ends an input method's composition picks a character; it must not send.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void submit();
  };

  return (
    <Stack gap={4}>
      <Textarea
        label="Your reply"
        description="Enter sends; Shift+Enter starts a new line."
        placeholder="Write to the visitor…"
        rows={3}
        resize="vertical"
        value={text}
        onChange={(event) => onChange(event.currentTarget.value)}
        onKeyDown={onKeyDown}
        error={error}
      />
      <Group justify="space-between" gap="xs">
        <Text size="xs" c={text.length > AGENT_TEXT_MAX ? 'red' : 'dimmed'}>
          {text.length} / {AGENT_TEXT_MAX}
        </Text>
        <Button
          size="sm"
          leftSection={<IconSend size={16} aria-hidden="true" />}
          loading={send.isPending}
          onClick={() => void submit()}
        >
          Send
        </Button>
      </Group>
    </Stack>
  );
}
