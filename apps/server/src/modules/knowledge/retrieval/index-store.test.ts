import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, type Database } from '../../../db/client';
import { MIGRATIONS_DIR } from '../../../paths';
import { openTestDatabase } from '../../../test/app';
import { searchKeyword } from './bm25';
import { deleteSourceChunks, indexChunks } from './index-store';
import { textSearchConfigFor } from './text-search-config';
import { addKnowledgeBase, addSource, addTenant, chunkOf, statsOf } from './retrieval.test-support';

const DOCUMENTS = [
  'Refunds are issued within five working days after the returned goods arrive at our warehouse.',
  'Standard shipping costs 4.90 euros and is free for orders above 50 euros.',
  'If you forgot your password, choose Forgot password on the sign-in page and enter your email address.',
  'Each API key may send 10 requests per second; above the limit the API answers with status 429.',
];

describe('knowledge index store', () => {
  let database: Database;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase());
    for (const tenant of ['acme', 'globex', 'initech']) await addTenant(database.db, tenant);
  });

  afterAll(async () => {
    await drop?.();
  });

  async function load(tenantId: string, name: string, texts: readonly string[], language = 'en') {
    const kb = await addKnowledgeBase(database.db, tenantId, name, language);
    const sourceId = await addSource(database.db, tenantId, kb.id, name);
    const chunkIds = await database.db.transaction((tx) =>
      indexChunks(tx, {
        tenantId,
        knowledgeBaseId: kb.id,
        sourceId,
        config: kb.config,
        title: name,
        chunks: texts.map((text, ordinal) => chunkOf(ordinal, text, ['Help', name])),
      }),
    );
    return { kb, sourceId, chunkIds };
  }

  it('never returns another tenant’s chunks, even for identical documents and a guessed knowledge base id', async () => {
    const acme = await load('acme', 'Help', DOCUMENTS);
    const globex = await load('globex', 'Help', DOCUMENTS);
    for (const query of [
      'when do I get my refund',
      'shipping cost',
      'forgot password',
      'API status 429 limit',
    ]) {
      const own = await searchKeyword(database.db, {
        tenantId: 'acme',
        knowledgeBaseIds: [acme.kb.id],
        query,
        topK: 10,
      });
      expect(own.length).toBeGreaterThan(0);
      expect(own.every((hit) => acme.chunkIds.includes(hit.chunkId))).toBe(true);
      // Asking acme's tenant for globex's knowledge base, or for both, yields acme's chunks only.
      const foreign = await searchKeyword(database.db, {
        tenantId: 'acme',
        knowledgeBaseIds: [globex.kb.id],
        query,
        topK: 10,
      });
      expect(foreign).toEqual([]);
      const both = await searchKeyword(database.db, {
        tenantId: 'acme',
        knowledgeBaseIds: [acme.kb.id, globex.kb.id],
        query,
        topK: 10,
      });
      expect(both.map((hit) => hit.chunkId)).toEqual(own.map((hit) => hit.chunkId));
      // Identical corpora score identically in each tenant: the statistics are per tenant as well.
      const theirs = await searchKeyword(database.db, {
        tenantId: 'globex',
        knowledgeBaseIds: [globex.kb.id],
        query,
        topK: 10,
      });
      expect(theirs.map((hit) => hit.score)).toEqual(own.map((hit) => hit.score));
      expect(theirs.every((hit) => globex.chunkIds.includes(hit.chunkId))).toBe(true);
    }
  });

  it('keeps the statistics equal to a recount after deleting and re-indexing sources', async () => {
    const first = await load('initech', 'Manual', DOCUMENTS);
    const second = await load('initech', 'Notes', DOCUMENTS.slice(0, 2));
    const extraSource = await addSource(database.db, 'initech', first.kb.id, 'Extra');
    await database.db.transaction((tx) =>
      indexChunks(tx, {
        tenantId: 'initech',
        knowledgeBaseId: first.kb.id,
        sourceId: extraSource,
        config: first.kb.config,
        chunks: [chunkOf(0, 'Express shipping costs 9.90 euros regardless of the order value.')],
      }),
    );
    const before = await statsOf(database.db, 'initech');
    expect(before.stored).toEqual(before.recomputed);
    expect(before.stored.find((s) => s.knowledgeBaseId === first.kb.id)?.chunkCount).toBe(5);

    const removed = await database.db.transaction((tx) =>
      deleteSourceChunks(tx, { tenantId: 'initech', sourceId: first.sourceId }),
    );
    expect(removed).toBe(4);
    const afterDelete = await statsOf(database.db, 'initech');
    expect(afterDelete.stored).toEqual(afterDelete.recomputed);
    expect(afterDelete.stored.find((s) => s.knowledgeBaseId === first.kb.id)?.chunkCount).toBe(1);
    const orphanPostings = rowsOf<{ n: number }>(
      await database.db.execute(sql`
        select count(*)::int as n from knowledge_postings p
        where p.tenant_id = 'initech' and not exists (select 1 from knowledge_chunks c where c.id = p.chunk_id)
      `),
    );
    expect(orphanPostings[0]?.n).toBe(0);
    const gone = await searchKeyword(database.db, {
      tenantId: 'initech',
      knowledgeBaseIds: [first.kb.id],
      query: 'forgot password',
      topK: 5,
    });
    expect(gone).toEqual([]);

    // Re-indexing the same source (a re-sync) brings the chunks back with consistent statistics.
    await database.db.transaction((tx) =>
      indexChunks(tx, {
        tenantId: 'initech',
        knowledgeBaseId: first.kb.id,
        sourceId: first.sourceId,
        config: first.kb.config,
        chunks: DOCUMENTS.map((text, ordinal) => chunkOf(ordinal, text)),
      }),
    );
    const afterReindex = await statsOf(database.db, 'initech');
    expect(afterReindex.stored).toEqual(afterReindex.recomputed);
    expect(afterReindex.stored.find((s) => s.knowledgeBaseId === second.kb.id)?.chunkCount).toBe(2);

    // Deleting a source that has no chunks changes nothing.
    const empty = await addSource(database.db, 'initech', first.kb.id, 'Empty');
    expect(
      await database.db.transaction((tx) => deleteSourceChunks(tx, { tenantId: 'initech', sourceId: empty })),
    ).toBe(0);
    const unchanged = await statsOf(database.db, 'initech');
    expect(unchanged.stored).toEqual(afterReindex.stored);
  });

  it('keeps the statistics right when a source or a knowledge base is deleted by cascade', async () => {
    const kept = await load('initech', 'Cascade kept', DOCUMENTS);
    const dropped = await load('initech', 'Cascade dropped', DOCUMENTS.slice(1));
    const other = await addSource(database.db, 'initech', kept.kb.id, 'Other');
    await database.db.transaction((tx) =>
      indexChunks(tx, {
        tenantId: 'initech',
        knowledgeBaseId: kept.kb.id,
        sourceId: other,
        config: kept.kb.config,
        chunks: [chunkOf(0, 'Pick-up points hold parcels for seven days.')],
      }),
    );
    await database.db.execute(sql`delete from knowledge_sources where id = ${kept.sourceId}::uuid`);
    const afterSource = await statsOf(database.db, 'initech');
    expect(afterSource.stored).toEqual(afterSource.recomputed);
    expect(afterSource.stored.find((s) => s.knowledgeBaseId === kept.kb.id)?.chunkCount).toBe(1);
    await database.db.execute(sql`delete from knowledge_bases where id = ${dropped.kb.id}::uuid`);
    const afterBase = await statsOf(database.db, 'initech');
    expect(afterBase.stored).toEqual(afterBase.recomputed);
    expect(afterBase.stored.some((s) => s.knowledgeBaseId === dropped.kb.id)).toBe(false);
  });

  it('ignores a delete for a source of another tenant', async () => {
    const acmeSource = rowsOf<{ id: string }>(
      await database.db.execute(sql`select id from knowledge_sources where tenant_id = 'acme' limit 1`),
    )[0];
    if (!acmeSource) throw new Error('no acme source');
    const removed = await database.db.transaction((tx) =>
      deleteSourceChunks(tx, { tenantId: 'globex', sourceId: acmeSource.id }),
    );
    expect(removed).toBe(0);
    const acme = await statsOf(database.db, 'acme');
    expect(acme.stored[0]?.chunkCount).toBe(DOCUMENTS.length);
  });

  it('stores each chunk’s length as its text’s lexeme occurrences, and counts its labels apart', async () => {
    const { chunkIds } = await load('acme', 'Lengths', ['Running runners run; the dog runs.']);
    const rows = rowsOf<{ length: number; tfs: number; labels: number; heading_path: string[] }>(
      await database.db.execute(sql`
        select c.length, c.heading_path,
          (select sum(tf)::int from knowledge_postings p where p.chunk_id = c.id) as tfs,
          (select sum(label_tf)::int from knowledge_postings p where p.chunk_id = c.id) as labels
        from knowledge_chunks c where c.id = ${chunkIds[0]}::uuid
      `),
    );
    // "run" x3, "runner", "dog" from the text ("the" is a stop word); "help" and "length" from the heading path,
    // whose "Lengths" is also the source's title and counts once.
    expect(rows[0]).toEqual({ length: 5, tfs: 5, labels: 2, heading_path: ['Help', 'Lengths'] });
  });

  it('tokenises the query with each knowledge base’s own language', async () => {
    const german = await load(
      'acme',
      'Hilfe',
      ['Die Rückerstattungen werden innerhalb von fünf Werktagen ausgezahlt.'],
      'de',
    );
    const english = await load('acme', 'Help EN', ['Refunds are paid within five working days.'], 'en');
    expect(german.kb.config).toBe('german');
    const hits = await searchKeyword(database.db, {
      tenantId: 'acme',
      knowledgeBaseIds: [german.kb.id, english.kb.id],
      query: 'Rückerstattung refunded',
      topK: 5,
    });
    expect(hits.map((hit) => hit.chunkId).sort()).toEqual([...german.chunkIds, ...english.chunkIds].sort());
  });

  it('returns nothing, without an error, for an empty query, stop words only, or malformed ids', async () => {
    const acmeKb = rowsOf<{ id: string }>(
      await database.db.execute(
        sql`select id from knowledge_bases where tenant_id = 'acme' and name = 'Help'`,
      ),
    )[0];
    if (!acmeKb) throw new Error('no acme knowledge base');
    const search = (query: string, ids = [acmeKb.id]) =>
      searchKeyword(database.db, { tenantId: 'acme', knowledgeBaseIds: ids, query, topK: 5 });
    expect(await search('   ')).toEqual([]);
    expect(await search('the and of it')).toEqual([]);
    expect(await search('refund', ['not-a-uuid', "'; drop table knowledge_chunks; --"])).toEqual([]);
    expect((await search("refund'); select 1; --")).length).toBeGreaterThan(0);
  });

  it('stores and searches text holding NUL or unpaired surrogates instead of failing', async () => {
    const { kb, chunkIds } = await load('globex', 'Odd bytes', [
      'Warranty\u0000claims need the serial \uD800number.',
    ]);
    for (const query of ['warranty\u0000 serial', 'serial \uDC00number']) {
      const hits = await searchKeyword(database.db, {
        tenantId: 'globex',
        knowledgeBaseIds: [kb.id],
        query,
        topK: 3,
      });
      expect(hits.map((hit) => hit.chunkId)).toEqual(chunkIds);
      expect(hits[0]?.text).toBe('Warranty claims need the serial  number.');
    }
  });

  /** A knowledge base of one source per page: its title, and its text as one chunk under the title and 'Details'. */
  async function site(tenantId: string, name: string, pages: ReadonlyArray<[string, string]>) {
    const kb = await addKnowledgeBase(database.db, tenantId, name, 'en');
    const ids: Record<string, string> = {};
    for (const [title, text] of pages) {
      const sourceId = await addSource(database.db, tenantId, kb.id, title);
      const [chunkId] = await database.db.transaction((tx) =>
        indexChunks(tx, {
          tenantId,
          knowledgeBaseId: kb.id,
          sourceId,
          config: kb.config,
          title,
          chunks: [chunkOf(0, text, [title, 'Details'])],
        }),
      );
      ids[title] = chunkId ?? '';
    }
    const search = async (query: string) =>
      (await searchKeyword(database.db, { tenantId, knowledgeBaseIds: [kb.id], query, topK: 5 })).map(
        (hit) => hit.chunkId,
      );
    return { kb, ids, search };
  }

  it('finds a page by its title and heading path, though its text never says the word', async () => {
    const { ids, search } = await site('initech', 'Company site', [
      [
        'Contact us',
        'Call 0800 123 456 on weekdays, or write to hello@initech.test and we answer within a day.',
      ],
      ['Opening hours', 'The shop opens at nine and closes at six, Saturdays at two.'],
      ['Delivery', 'Parcels leave the warehouse every afternoon.'],
    ]);
    expect(await search('contact')).toEqual([ids['Contact us']]);
    expect((await search('How can I contact you?'))[0]).toBe(ids['Contact us']);
  });

  it('ranks a text that answers above a title that only names the word', async () => {
    const { ids, search } = await site('initech', 'Title against text', [
      ['Refunds', 'Our team is proud of the service it gives, and we thank every customer for their trust.'],
      ['Orders', 'A refund is paid to your card within five working days after we receive the return.'],
      ['Returns', 'Send returns with the label from your account; the courier collects them at your door.'],
    ]);
    // "refund" is the Refunds page's title, and in the Orders page's text: the text that answers comes first.
    expect((await search('refund'))[0]).toBe(ids.Orders);
    expect((await search('When is my refund paid?'))[0]).toBe(ids.Orders);
    // The title still lifts its page above pages that share no word with the question.
    expect(await search('refund')).toEqual([ids.Orders, ids.Refunds]);
  });

  it('re-indexes, in its migration, chunks stored before titles and heading paths were labels', async () => {
    const { kb, ids, search } = await site('initech', 'Stored before', [
      ['Contact the office', 'Call 0800 555 010 on weekdays.'],
      ['Parking', 'Park behind the building; the gate opens at seven.'],
    ]);
    const chunkIds = Object.values(ids);
    const indexState = async () =>
      rowsOf(
        await database.db.execute(sql`
          select c.id, c.tsv::text, c.length,
            (select jsonb_agg(jsonb_build_array(p.lexeme, p.tf, p.label_tf, p.length) order by p.lexeme)
              from knowledge_postings p where p.chunk_id = c.id) as postings
          from knowledge_chunks c
          where c.id in (select jsonb_array_elements_text(${JSON.stringify(chunkIds)}::jsonb)::uuid) order by c.id
        `),
      );
    const fresh = await indexState();
    const freshStats = await statsOf(database.db, 'initech');
    // As the index was stored before: heading path and text in one unweighted tsvector, the title not at all.
    await database.db.execute(sql`
      update knowledge_chunks c set tsv = to_tsvector('english', c.text),
        length = (select coalesce(sum(array_length(u.positions, 1)), 0) from unnest(to_tsvector('english', c.text)) u)
      where c.knowledge_base_id = ${kb.id}::uuid
    `);
    await database.db.execute(sql`delete from knowledge_postings where knowledge_base_id = ${kb.id}::uuid`);
    await database.db.execute(sql`
      insert into knowledge_postings (tenant_id, knowledge_base_id, lexeme, chunk_id, tf, length)
      select c.tenant_id, c.knowledge_base_id, u.lexeme, c.id, array_length(u.positions, 1), c.length
      from knowledge_chunks c, unnest(c.tsv) u where c.knowledge_base_id = ${kb.id}::uuid
    `);
    await database.db.execute(sql`
      update knowledge_base_stats set total_length = total_length + 5 where knowledge_base_id = ${kb.id}::uuid
    `);
    expect(await search('contact')).toEqual([]);

    const migration = readFileSync(path.join(MIGRATIONS_DIR, '0018_search_labels.sql'), 'utf8')
      .split('--> statement-breakpoint')
      .filter((statement) => !/ADD COLUMN "label_tf"/.test(statement));
    for (const statement of migration) await database.db.execute(sql.raw(statement));

    expect(await indexState()).toEqual(fresh);
    expect(await statsOf(database.db, 'initech')).toEqual(freshStats);
    expect(await search('contact')).toEqual([ids['Contact the office']]);
  });

  it('maps languages to text-search configurations, and everything else to simple', () => {
    expect(textSearchConfigFor('en')).toBe('english');
    expect(textSearchConfigFor('en-GB')).toBe('english');
    expect(textSearchConfigFor('German')).toBe('german');
    expect(textSearchConfigFor('pt_BR')).toBe('portuguese');
    expect(textSearchConfigFor('nl')).toBe('dutch');
    expect(textSearchConfigFor('ja')).toBe('simple');
    expect(textSearchConfigFor('')).toBe('simple');
  });
});
