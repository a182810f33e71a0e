CREATE TABLE "knowledge_base_stats" (
	"tenant_id" text NOT NULL,
	"knowledge_base_id" uuid NOT NULL,
	"chunk_count" integer DEFAULT 0 NOT NULL,
	"total_length" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "knowledge_base_stats_pkey" PRIMARY KEY("tenant_id","knowledge_base_id")
);
--> statement-breakpoint
CREATE TABLE "knowledge_bases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"name" text NOT NULL,
	"language" text NOT NULL,
	"ts_config" text DEFAULT 'simple' NOT NULL,
	"chunk_target_words" integer DEFAULT 350 NOT NULL,
	"chunk_overlap" real DEFAULT 0.15 NOT NULL,
	"created_by" text,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "knowledge_bases_tenant_id_key" UNIQUE("tenant_id","id"),
	CONSTRAINT "knowledge_bases_ts_config_check" CHECK ("knowledge_bases"."ts_config" in ('english', 'german', 'french', 'spanish', 'italian', 'portuguese', 'dutch', 'simple')),
	CONSTRAINT "knowledge_bases_chunk_target_words_check" CHECK ("knowledge_bases"."chunk_target_words" between 50 and 2000),
	CONSTRAINT "knowledge_bases_chunk_overlap_check" CHECK ("knowledge_bases"."chunk_overlap" >= 0 and "knowledge_bases"."chunk_overlap" < 0.5)
);
--> statement-breakpoint
CREATE TABLE "knowledge_chunks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"knowledge_base_id" uuid NOT NULL,
	"source_id" uuid NOT NULL,
	"ordinal" integer NOT NULL,
	"text" text NOT NULL,
	"heading_path" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"page" integer,
	"length" integer NOT NULL,
	"char_count" integer NOT NULL,
	"word_count" integer NOT NULL,
	"hash" text NOT NULL,
	"tsv" "tsvector" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_postings" (
	"tenant_id" text NOT NULL,
	"knowledge_base_id" uuid NOT NULL,
	"lexeme" text NOT NULL,
	"chunk_id" uuid NOT NULL,
	"tf" integer NOT NULL,
	"length" integer NOT NULL,
	CONSTRAINT "knowledge_postings_pkey" PRIMARY KEY("tenant_id","knowledge_base_id","lexeme","chunk_id") INCLUDE ("tf","length")
);
--> statement-breakpoint
CREATE TABLE "knowledge_qa" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"knowledge_base_id" uuid NOT NULL,
	"source_id" uuid NOT NULL,
	"question" text NOT NULL,
	"answer" text NOT NULL,
	"question_tsv" "tsvector" NOT NULL,
	"created_by" text,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_sources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"knowledge_base_id" uuid NOT NULL,
	"type" text NOT NULL,
	"title" text,
	"url" text,
	"path" text,
	"crawl" jsonb,
	"state" text DEFAULT 'queued' NOT NULL,
	"error_code" text,
	"error_reason" text,
	"content_hash" text,
	"chunk_count" integer DEFAULT 0 NOT NULL,
	"last_synced_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_by" text,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "knowledge_sources_tenant_id_key" UNIQUE("tenant_id","id"),
	CONSTRAINT "knowledge_sources_type_check" CHECK ("knowledge_sources"."type" in ('text', 'url', 'sitemap', 'file', 'qa')),
	CONSTRAINT "knowledge_sources_state_check" CHECK ("knowledge_sources"."state" in ('queued', 'fetching', 'parsing', 'indexing', 'ready', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "knowledge_base_stats" ADD CONSTRAINT "knowledge_base_stats_knowledge_base_fk" FOREIGN KEY ("tenant_id","knowledge_base_id") REFERENCES "public"."knowledge_bases"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_bases" ADD CONSTRAINT "knowledge_bases_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD CONSTRAINT "knowledge_chunks_source_fk" FOREIGN KEY ("tenant_id","source_id") REFERENCES "public"."knowledge_sources"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD CONSTRAINT "knowledge_chunks_knowledge_base_fk" FOREIGN KEY ("tenant_id","knowledge_base_id") REFERENCES "public"."knowledge_bases"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_postings" ADD CONSTRAINT "knowledge_postings_chunk_id_knowledge_chunks_id_fk" FOREIGN KEY ("chunk_id") REFERENCES "public"."knowledge_chunks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_qa" ADD CONSTRAINT "knowledge_qa_source_fk" FOREIGN KEY ("tenant_id","source_id") REFERENCES "public"."knowledge_sources"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_qa" ADD CONSTRAINT "knowledge_qa_knowledge_base_fk" FOREIGN KEY ("tenant_id","knowledge_base_id") REFERENCES "public"."knowledge_bases"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_sources" ADD CONSTRAINT "knowledge_sources_knowledge_base_fk" FOREIGN KEY ("tenant_id","knowledge_base_id") REFERENCES "public"."knowledge_bases"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "knowledge_bases_tenant_name_idx" ON "knowledge_bases" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE INDEX "knowledge_chunks_source_idx" ON "knowledge_chunks" USING btree ("tenant_id","source_id","ordinal");--> statement-breakpoint
CREATE INDEX "knowledge_chunks_base_idx" ON "knowledge_chunks" USING btree ("tenant_id","knowledge_base_id");--> statement-breakpoint
CREATE INDEX "knowledge_postings_chunk_idx" ON "knowledge_postings" USING btree ("chunk_id");--> statement-breakpoint
CREATE INDEX "knowledge_qa_base_idx" ON "knowledge_qa" USING btree ("tenant_id","knowledge_base_id");--> statement-breakpoint
CREATE INDEX "knowledge_qa_source_idx" ON "knowledge_qa" USING btree ("tenant_id","source_id");--> statement-breakpoint
CREATE INDEX "knowledge_sources_tenant_base_idx" ON "knowledge_sources" USING btree ("tenant_id","knowledge_base_id","created_at");--> statement-breakpoint
CREATE INDEX "knowledge_sources_state_idx" ON "knowledge_sources" USING btree ("state");--> statement-breakpoint
CREATE FUNCTION "knowledge_chunks_forget_stats"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "knowledge_base_stats" s
	SET "chunk_count" = s."chunk_count" - g.n, "total_length" = s."total_length" - g.total, "updated_at" = now()
	FROM (SELECT "tenant_id", "knowledge_base_id", count(*) AS n, sum("length") AS total FROM gone GROUP BY 1, 2) g
	WHERE s."tenant_id" = g."tenant_id" AND s."knowledge_base_id" = g."knowledge_base_id";
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "knowledge_chunks_forget_stats" AFTER DELETE ON "knowledge_chunks" REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION "knowledge_chunks_forget_stats"();
