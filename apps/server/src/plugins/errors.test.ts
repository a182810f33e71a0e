import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tenants } from '../db/schema';
import { createTestApp, type TestApp } from '../test/app';

describe('error log lines', () => {
  let t: TestApp;
  const MARKER = 'submitted-marker-5f2c9e';

  beforeAll(async () => {
    t = await createTestApp({ skipReady: true });
    // A handler whose insert fails in the database (a duplicate key) with submitted values as parameters.
    t.app
      .withTypeProvider<ZodTypeProvider>()
      .post(
        '/v1/test-db-failure',
        { schema: { body: z.object({ tenant: z.string(), name: z.string() }) } },
        async (request) => {
          const row = { tenantId: request.body.tenant, name: request.body.name, type: '2' };
          await t.database.db.insert(tenants).values(row);
          await t.database.db.insert(tenants).values(row);
          return { ok: true };
        },
      );
    await t.app.ready();
  });
  afterAll(() => t.close());

  it('logs a failed query by its message and code, never the values it was given', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/test-db-failure',
      payload: { tenant: MARKER, name: `${MARKER}-name` },
    });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain(MARKER);
    expect(JSON.stringify(t.logs)).not.toContain(MARKER);
    const line = t.logs.find((entry) => entry.msg === 'unhandled error');
    const err = line?.err as { type: string; message: string; stack: string; cause?: { code?: string } };
    expect(err.message).toMatch(/^Failed query: insert into "tenants"/);
    expect(err.stack).toContain('    at ');
    expect(err.cause?.code).toBe('23505');
  });
});
