import { Button, FileButton, Group, ScrollArea, Stack, Table, Text, Textarea } from '@mantine/core';
import type { QaCsvResult } from '@omnibot/contracts';
import { IconFileSpreadsheet } from '@tabler/icons-react';
import { plural } from '../../utils/bulk-sources';

/** Q&A pairs from CSV text, pasted or read from a file, with every line shown as a pair or as its problem. */
export function BulkQaPanel({
  csv,
  csvName,
  qa,
  onCsvChange,
  onChooseCsv,
}: {
  csv: string;
  csvName: string | null;
  qa: QaCsvResult;
  onCsvChange: (csv: string) => void;
  onChooseCsv: (file: File | null) => void;
}) {
  const csvRows = [
    ...qa.pairs.map((pair) => ({ line: pair.line, pair, problem: null })),
    ...qa.problems.map((problem) => ({ line: problem.line, pair: null, problem: problem.message })),
  ].sort((a, b) => a.line - b.line);

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" c="dimmed">
          Two columns, question then answer; a header row is recognised.
        </Text>
        <FileButton onChange={onChooseCsv} accept=".csv,text/csv">
          {(props) => (
            <Button
              variant="default"
              leftSection={<IconFileSpreadsheet size={16} aria-hidden="true" />}
              {...props}
            >
              Choose a .csv file
            </Button>
          )}
        </FileButton>
      </Group>
      <Textarea
        label="CSV text"
        description={csvName ? `Read from ${csvName}; edit it here if needed.` : undefined}
        placeholder={'question,answer\n"Do you ship abroad?","Yes, to the EU and the UK."'}
        rows={6}
        resize="vertical"
        value={csv}
        onChange={(event) => onCsvChange(event.currentTarget.value)}
      />
      {csvRows.length > 0 && (
        <>
          <Text size="sm" aria-live="polite">
            {plural(qa.pairs.length, 'pair', 'pairs')} read
            {qa.problems.length > 0 ? `, ${plural(qa.problems.length, 'line', 'lines')} with problems` : ''}.
          </Text>
          <ScrollArea.Autosize mah={360} type="auto">
            <Table striped withTableBorder aria-label="Q&A pairs" miw={320}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={56}>Line</Table.Th>
                  <Table.Th>Question</Table.Th>
                  <Table.Th>Answer</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {csvRows.map((row) =>
                  row.pair ? (
                    <Table.Tr key={`pair-${row.line}`}>
                      <Table.Td>{row.line}</Table.Td>
                      <Table.Td>
                        <Text size="sm" lineClamp={3}>
                          {row.pair.question}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" lineClamp={3}>
                          {row.pair.answer}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ) : (
                    <Table.Tr
                      key={`problem-${row.line}`}
                      bg="var(--mantine-color-red-light)"
                      data-problem="true"
                    >
                      <Table.Td>{row.line}</Table.Td>
                      <Table.Td colSpan={2}>
                        <Text size="sm" c="var(--mantine-color-red-light-color)">
                          {row.problem}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ),
                )}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
        </>
      )}
    </Stack>
  );
}
