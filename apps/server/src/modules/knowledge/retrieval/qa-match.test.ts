import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../db/client';
import { openTestDatabase } from '../../../test/app';
import { deleteSourceChunks, indexQa } from './index-store';
import { matchQa } from './qa-match';
import { addKnowledgeBase, addSource, addTenant } from './retrieval.test-support';

const PAIRS = [
  { question: 'How do I reset my password?', answer: 'Choose Forgot password on the sign-in page.' },
  { question: 'How do I change my email address?', answer: 'Open Profile and enter the new address.' },
  { question: 'What are your support opening hours?', answer: 'Monday to Friday, 8 am to 8 pm.' },
  { question: 'How much does express shipping cost?', answer: 'Express shipping costs 9.90 euros.' },
  { question: 'Can I return an opened bulb?', answer: 'Yes, if it is undamaged, within 30 days.' },
  {
    question: 'Do you deliver to the United Kingdom?',
    answer: 'Yes, to the EU, Switzerland, Norway and the UK.',
  },
];

describe('curated Q&A matching', () => {
  let database: Database;
  let drop: (() => Promise<void>) | undefined;
  let kbId: string;
  let otherKbId: string;
  let sourceId: string;

  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase());
    await addTenant(database.db, 'acme');
    await addTenant(database.db, 'globex');
    const kb = await addKnowledgeBase(database.db, 'acme', 'FAQ', 'en');
    kbId = kb.id;
    sourceId = await addSource(database.db, 'acme', kb.id, 'FAQ pairs');
    await database.db.transaction((tx) =>
      indexQa(tx, { tenantId: 'acme', knowledgeBaseId: kb.id, sourceId, config: kb.config, pairs: PAIRS }),
    );
    const other = await addKnowledgeBase(database.db, 'globex', 'FAQ', 'en');
    otherKbId = other.id;
    const otherSource = await addSource(database.db, 'globex', other.id, 'FAQ pairs');
    await database.db.transaction((tx) =>
      indexQa(tx, {
        tenantId: 'globex',
        knowledgeBaseId: other.id,
        sourceId: otherSource,
        config: other.config,
        pairs: [{ question: 'How do I reset my password?', answer: 'Globex: call the IT desk.' }],
      }),
    );
  });

  afterAll(async () => {
    await drop?.();
  });

  const ask = (question: string, tenantId = 'acme', ids = [kbId]) =>
    matchQa(database.db, { tenantId, knowledgeBaseIds: ids, question });

  it.each([
    ['How do I reset my password?', 'How do I reset my password?'],
    ['how can i reset my password', 'How do I reset my password?'],
    ['I forgot my password, how do I reset it?', 'How do I reset my password?'],
    ['Changing my email address', 'How do I change my email address?'],
    ['what does express shipping cost', 'How much does express shipping cost?'],
    ['support opening hours?', 'What are your support opening hours?'],
    ['Do you deliver to the UK or the United Kingdom?', 'Do you deliver to the United Kingdom?'],
  ])('answers %j with the pair %j', async (question, expected) => {
    const match = await ask(question);
    expect(match?.question).toBe(expected);
    expect(match?.sourceId).toBe(sourceId);
  });

  it.each([
    'How do I change my password?',
    'What is the password policy for API keys?',
    'How much does standard shipping cost to Norway?',
    'Can I return a broken hub after two months?',
    'Where is my parcel?',
    'password',
    'the and of',
    '',
  ])('gives no curated answer to %j', async (question) => {
    expect(await ask(question)).toBeNull();
  });

  it('matches only the tenant’s own pairs', async () => {
    const own = await ask('How do I reset my password?', 'globex', [otherKbId, kbId]);
    expect(own?.answer).toBe('Globex: call the IT desk.');
    expect(await ask('What are your support opening hours?', 'globex', [kbId])).toBeNull();
  });

  it('stops matching once the pairs’ source is deleted', async () => {
    await database.db.transaction((tx) => deleteSourceChunks(tx, { tenantId: 'acme', sourceId }));
    expect(await ask('How do I reset my password?')).toBeNull();
  });
});
