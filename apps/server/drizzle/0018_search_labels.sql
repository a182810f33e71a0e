ALTER TABLE "knowledge_postings" ADD COLUMN "label_tf" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A chunk's tsvector holds its labels (its source's title and its heading path, each once) at weight A and its
-- text at D; its length counts the text only; each posting counts the text (tf) and the labels (label_tf) apart.
UPDATE "knowledge_chunks" c
SET "tsv" = setweight(to_tsvector(kb."ts_config"::regconfig, coalesce((
    SELECT string_agg(l.label, E'\n' ORDER BY l.first)
    FROM (
      SELECT min(btrim(u.label)) AS label, min(u.ord) AS first
      FROM unnest(array[coalesce(s."title", '')] || array(SELECT jsonb_array_elements_text(c."heading_path")))
        WITH ORDINALITY u(label, ord)
      WHERE btrim(u.label) <> ''
      GROUP BY lower(btrim(u.label))
    ) l
  ), '')), 'A') || to_tsvector(kb."ts_config"::regconfig, c."text")
FROM "knowledge_sources" s, "knowledge_bases" kb
WHERE s."tenant_id" = c."tenant_id" AND s."id" = c."source_id"
  AND kb."tenant_id" = c."tenant_id" AND kb."id" = c."knowledge_base_id";--> statement-breakpoint
UPDATE "knowledge_chunks" c
SET "length" = (SELECT count(*) FROM unnest(c."tsv") u, unnest(u.weights) w WHERE w = 'D');--> statement-breakpoint
ALTER TABLE "knowledge_postings" DROP CONSTRAINT "knowledge_postings_pkey";--> statement-breakpoint
DELETE FROM "knowledge_postings";--> statement-breakpoint
INSERT INTO "knowledge_postings" ("tenant_id", "knowledge_base_id", "lexeme", "chunk_id", "tf", "label_tf", "length")
SELECT c."tenant_id", c."knowledge_base_id", u.lexeme, c."id",
  cardinality(array_positions(u.weights, 'D')), cardinality(array_positions(u.weights, 'A')), c."length"
FROM "knowledge_chunks" c, unnest(c."tsv") u;--> statement-breakpoint
ALTER TABLE "knowledge_postings" ADD CONSTRAINT "knowledge_postings_pkey"
  PRIMARY KEY ("tenant_id", "knowledge_base_id", "lexeme", "chunk_id") INCLUDE ("tf", "label_tf", "length");--> statement-breakpoint
UPDATE "knowledge_base_stats" st
SET "chunk_count" = t.n, "total_length" = t.total, "updated_at" = now()
FROM (
  SELECT b."tenant_id", b."knowledge_base_id", count(c."id") AS n, coalesce(sum(c."length"), 0) AS total
  FROM "knowledge_base_stats" b
  LEFT JOIN "knowledge_chunks" c ON c."tenant_id" = b."tenant_id" AND c."knowledge_base_id" = b."knowledge_base_id"
  GROUP BY b."tenant_id", b."knowledge_base_id"
) t
WHERE st."tenant_id" = t."tenant_id" AND st."knowledge_base_id" = t."knowledge_base_id";
