CREATE TABLE "index_knowledge_bases" (
	"tenant_id" text NOT NULL,
	"index_id" uuid NOT NULL,
	"knowledge_base_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "index_knowledge_bases_pkey" PRIMARY KEY("tenant_id","index_id","knowledge_base_id")
);
--> statement-breakpoint
CREATE TABLE "indexes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"name" text NOT NULL,
	"mode" text DEFAULT 'keyword' NOT NULL,
	"top_k" integer DEFAULT 5 NOT NULL,
	"score_threshold" real DEFAULT 0 NOT NULL,
	"embedding_model_id" uuid,
	"embedding_state" text DEFAULT 'none' NOT NULL,
	"embedding_done" integer DEFAULT 0 NOT NULL,
	"embedding_total" integer DEFAULT 0 NOT NULL,
	"embedding_error_code" text,
	"embedding_error_reason" text,
	"created_by" text,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "indexes_tenant_id_key" UNIQUE("tenant_id","id"),
	CONSTRAINT "indexes_mode_check" CHECK ("indexes"."mode" in ('keyword', 'vector', 'hybrid')),
	CONSTRAINT "indexes_embedding_state_check" CHECK ("indexes"."embedding_state" in ('none', 'pending', 'embedding', 'ready', 'failed')),
	CONSTRAINT "indexes_top_k_check" CHECK ("indexes"."top_k" between 1 and 50)
);
--> statement-breakpoint
ALTER TABLE "index_knowledge_bases" ADD CONSTRAINT "index_knowledge_bases_index_fk" FOREIGN KEY ("tenant_id","index_id") REFERENCES "public"."indexes"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "index_knowledge_bases" ADD CONSTRAINT "index_knowledge_bases_knowledge_base_fk" FOREIGN KEY ("tenant_id","knowledge_base_id") REFERENCES "public"."knowledge_bases"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "indexes" ADD CONSTRAINT "indexes_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "indexes" ADD CONSTRAINT "indexes_embedding_model_id_models_id_fk" FOREIGN KEY ("embedding_model_id") REFERENCES "public"."models"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "index_knowledge_bases_base_idx" ON "index_knowledge_bases" USING btree ("tenant_id","knowledge_base_id");--> statement-breakpoint
CREATE UNIQUE INDEX "indexes_tenant_name_key" ON "indexes" USING btree ("tenant_id","name");