import {
  type CreateModelBodySchema,
  menuRuleHolds,
  type ModelKind,
  type ModelTestResult,
  type UpdateModelBodySchema,
} from '@omnibot/contracts';
import { and, asc, eq, inArray, type SQLWrapper, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { models, modelShares, type ModelRow } from '../../db/schema';
import { type Actor, writeAudit } from '../../lib/audit';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors';
import { type SecretBox, SecretBoxError } from '../../lib/secret-box';
import { assertSecretStaysWithEndpoint } from '../../lib/secret-endpoint';
import { actorId, type Principal } from '../../lib/principal';
import { modelFromRow, ProviderError } from './providers';
import { idsInSubtree, selfAndAncestorIdsSql } from '../tenancy/tenant-access';
import { type GuardedWebFetch, refusalReasonFor } from '../../lib/guarded-http/guarded-fetch';

export interface ModelsDeps {
  db: Db;
  /** Seals and opens API keys (purpose "model-api-key"). */
  secretBox: SecretBox;
  /** The guarded client model calls go through: a model's address is one a tenant supplies. */
  modelFetch: GuardedWebFetch;
}

const MODEL_NOT_FOUND = 'Model not found';
export const TEST_TIMEOUT_MS = 15_000;

type CreateModelInput = z.output<typeof CreateModelBodySchema>;
type UpdateModelInput = z.output<typeof UpdateModelBodySchema>;

export interface StoredModel {
  row: ModelRow;
  shares: string[];
}

/** Model connections are managed by a master of a level-1 or level-2 tenant, the rule of the Models menu. */
export function assertCanManageModels(principal: Principal) {
  const level = principal.tenantType === '1' || principal.tenantType === '2' ? principal.tenantType : '3';
  if (!menuRuleHolds('models', { level, role: principal.role, features: [] })) {
    throw forbidden('Only a master of the platform or of a partner manages model connections.');
  }
}

/** The last 4 characters shown in the mask; none for keys so short that 4 characters would give most away. */
const last4Of = (apiKey: string) => (apiKey.length >= 12 ? apiKey.slice(-4) : null);

async function sharesOf(db: Db, ids: string[]): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return map;
  const rows = await db
    .select()
    .from(modelShares)
    .where(inArray(modelShares.modelId, ids))
    .orderBy(asc(modelShares.tenantId));
  for (const row of rows) map.get(row.modelId)?.push(row.tenantId);
  return map;
}

/** Listed tenants must exist inside the owner's subtree; otherwise 400 naming the first one that does not. */
async function assertShareable(db: Db, ownerTenantId: string, tenantIds: string[]) {
  if (tenantIds.length === 0) return;
  const found = await idsInSubtree(db, ownerTenantId, tenantIds);
  const missing = tenantIds.find((id) => !found.has(id));
  if (missing !== undefined) {
    throw badRequest(`Unknown organisation to share with: ${missing}.`, 'model/unknown-tenant');
  }
}

export async function listModels(deps: ModelsDeps, principal: Principal): Promise<StoredModel[]> {
  assertCanManageModels(principal);
  const rows = await deps.db
    .select()
    .from(models)
    .where(eq(models.tenantId, principal.tenantId))
    .orderBy(asc(models.name), asc(models.id));
  const shares = await sharesOf(
    deps.db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ row, shares: shares.get(row.id) ?? [] }));
}

async function ownedRow(db: Db, principal: Principal, id: string): Promise<ModelRow> {
  const [row] = await db
    .select()
    .from(models)
    .where(and(eq(models.id, id), eq(models.tenantId, principal.tenantId)))
    .limit(1);
  if (!row) throw notFound(MODEL_NOT_FOUND);
  return row;
}

export async function getModel(deps: ModelsDeps, principal: Principal, id: string): Promise<StoredModel> {
  assertCanManageModels(principal);
  const row = await ownedRow(deps.db, principal, id);
  return { row, shares: (await sharesOf(deps.db, [id])).get(id) ?? [] };
}

export async function createModel(
  deps: ModelsDeps,
  actor: Actor,
  input: CreateModelInput,
): Promise<StoredModel> {
  const { principal } = actor;
  assertCanManageModels(principal);
  const tenantIds = [...new Set(input.sharing.tenant_ids)].sort();
  await assertShareable(deps.db, principal.tenantId, tenantIds);
  const who = actorId(principal);
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(models)
      .values({
        tenantId: principal.tenantId,
        name: input.name,
        kind: input.kind,
        baseUrl: input.base_url,
        modelName: input.model_name,
        apiKeyEncrypted: input.api_key === undefined ? null : deps.secretBox.encrypt(input.api_key),
        apiKeyLast4: input.api_key === undefined ? null : last4Of(input.api_key),
        maxTokens: input.max_tokens,
        temperature: input.temperature,
        dimensions: input.kind === 'embedding' ? (input.dimensions ?? null) : null,
        sharedWithAll: input.sharing.all,
        createdBy: who,
        updatedBy: who,
      })
      .returning();
    if (!row) throw new AppError(500, 'internal', 'The model was not stored.');
    if (tenantIds.length > 0) {
      await tx.insert(modelShares).values(tenantIds.map((tenantId) => ({ modelId: row.id, tenantId })));
    }
    await writeAudit(tx, actor, {
      tenantId: principal.tenantId,
      action: 'model.create',
      target: row.id,
      details: { name: row.name, kind: row.kind, api_key_set: input.api_key !== undefined },
    });
    return { row, shares: tenantIds };
  });
}

export async function updateModel(
  deps: ModelsDeps,
  actor: Actor,
  id: string,
  input: UpdateModelInput,
): Promise<StoredModel> {
  const { principal } = actor;
  assertCanManageModels(principal);
  const current = await ownedRow(deps.db, principal, id);
  const tenantIds = input.sharing ? [...new Set(input.sharing.tenant_ids)].sort() : undefined;
  if (tenantIds) await assertShareable(deps.db, principal.tenantId, tenantIds);
  const changes: Partial<typeof models.$inferInsert> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.base_url !== undefined) {
    if (input.api_key === undefined && current.apiKeyEncrypted !== null) {
      assertSecretStaysWithEndpoint(current.baseUrl, input.base_url);
    }
    changes.baseUrl = input.base_url;
  }
  if (input.model_name !== undefined) changes.modelName = input.model_name;
  if (input.max_tokens !== undefined) changes.maxTokens = input.max_tokens;
  if (input.temperature !== undefined) changes.temperature = input.temperature;
  if (input.dimensions !== undefined && current.kind === 'embedding') changes.dimensions = input.dimensions;
  if (input.sharing) changes.sharedWithAll = input.sharing.all;
  if (input.api_key === null) {
    changes.apiKeyEncrypted = null;
    changes.apiKeyLast4 = null;
  } else if (input.api_key !== undefined) {
    changes.apiKeyEncrypted = deps.secretBox.encrypt(input.api_key);
    changes.apiKeyLast4 = last4Of(input.api_key);
  }
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(models)
      .set({ ...changes, updatedBy: actorId(principal), updatedAt: new Date() })
      .where(and(eq(models.id, id), eq(models.tenantId, principal.tenantId)))
      .returning();
    if (!row) throw notFound(MODEL_NOT_FOUND);
    if (tenantIds) {
      await tx.delete(modelShares).where(eq(modelShares.modelId, id));
      if (tenantIds.length > 0) {
        await tx.insert(modelShares).values(tenantIds.map((tenantId) => ({ modelId: id, tenantId })));
      }
    }
    const fields = Object.keys(input).filter((field) => field !== 'api_key');
    const db: Db = tx;
    if (fields.length > 0) {
      await writeAudit(db, actor, {
        tenantId: principal.tenantId,
        action: 'model.update',
        target: id,
        details: { fields },
      });
    }
    if (input.api_key !== undefined) {
      await writeAudit(db, actor, {
        tenantId: principal.tenantId,
        action: input.api_key === null ? 'model.api_key.remove' : 'model.api_key.change',
        target: id,
      });
    }
    const shares = tenantIds ?? (await sharesOf(db, [id])).get(id) ?? [];
    return { row, shares };
  });
}

export async function deleteModel(deps: ModelsDeps, actor: Actor, id: string): Promise<void> {
  const { principal } = actor;
  assertCanManageModels(principal);
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(models)
      .where(and(eq(models.id, id), eq(models.tenantId, principal.tenantId)))
      .returning({ id: models.id, name: models.name });
    if (!row) throw notFound(MODEL_NOT_FOUND);
    await writeAudit(tx, actor, {
      tenantId: principal.tenantId,
      action: 'model.delete',
      target: id,
      details: { name: row.name },
    });
  });
}

/**
 * A tiny real call: a short chat completion, the embedding of "test" or the speech of "Test."; the provider's
 * failure in plain words.
 */
export async function testModel(
  deps: ModelsDeps,
  principal: Principal,
  id: string,
  timeoutMs = TEST_TIMEOUT_MS,
): Promise<ModelTestResult> {
  assertCanManageModels(principal);
  const row = await ownedRow(deps.db, principal, id);
  const started = performance.now();
  try {
    const model = modelFromRow(row, deps.secretBox, { timeoutMs, fetch: deps.modelFetch });
    if (model.kind === 'chat') {
      await model.chat.generate({ messages: [{ role: 'user', content: 'Reply with OK.' }], maxTokens: 16 });
    } else if (model.kind === 'speech') {
      await model.speech.speak('Test.');
    } else {
      await model.embedding.embed(['test']);
    }
    return { ok: true, latency_ms: Math.round(performance.now() - started) };
  } catch (error) {
    if (error instanceof ProviderError) {
      return {
        ok: false,
        code: error.code,
        message: refusalReasonFor(error.fetchCode ?? '', error.message, principal),
      };
    }
    if (error instanceof SecretBoxError) {
      return {
        ok: false,
        code: 'model/key-unreadable',
        message:
          'The stored API key cannot be decrypted (the installation secret changed); enter the key again.',
      };
    }
    throw error;
  }
}

/**
 * The models a tenant may use: its own, and those of the tenants above it that are shared with all or with
 * it. Never their keys.
 */
export async function availableModels(
  deps: Pick<ModelsDeps, 'db'>,
  principal: Principal,
  kind: ModelKind | undefined,
): Promise<ModelRow[]> {
  return modelsOfferedTo(deps.db, principal.tenantId, kind);
}

/** The models offered to tenant `self` (its own, and those shared down to it), by name. */
export async function modelsOfferedTo(
  db: Db,
  self: string,
  kind: ModelKind | undefined,
): Promise<ModelRow[]> {
  const ancestors = selfAndAncestorIdsSql(self);
  return db
    .select()
    .from(models)
    .where(
      and(
        kind === undefined ? undefined : eq(models.kind, kind),
        sql`${models.tenantId} in (${ancestors})`,
        sql`(${models.tenantId} = ${self} or ${models.sharedWithAll} or exists (
          select 1 from ${modelShares} s where s.model_id = ${models.id} and s.tenant_id = ${self}))`,
      ),
    )
    .orderBy(asc(models.name), asc(models.id));
}

/**
 * A model's name as a correlated subquery, for a later module's statement that lists its rows with the model they
 * use; matched by id alone because the model may be shared down from an ancestor tenant. Null for none.
 */
export const modelNameSql = (modelId: SQLWrapper) =>
  sql<string | null>`(select ${models.name} from ${models} where ${models.id} = ${modelId})`;

/** Model `id` by id alone (an index's or a RAG's model may be shared down from an ancestor tenant); null if gone. */
export async function modelById(db: Db, id: string): Promise<ModelRow | null> {
  const [row] = await db.select().from(models).where(eq(models.id, id));
  return row ?? null;
}
