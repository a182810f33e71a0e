ALTER TABLE "prompts" ADD CONSTRAINT "prompts_tenant_id_key" UNIQUE("tenant_id","id");--> statement-breakpoint
CREATE TABLE "rag_answers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"rag_id" uuid NOT NULL,
	"question" text NOT NULL,
	"answer" text NOT NULL,
	"kind" text NOT NULL,
	"fallback" boolean NOT NULL,
	"chunks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"retrieve_ms" real NOT NULL,
	"generate_ms" real NOT NULL,
	"total_ms" real NOT NULL,
	"model_error_code" text,
	"channel" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rag_answers_kind_check" CHECK ("rag_answers"."kind" in ('qa', 'model', 'extractive', 'fallback'))
);
--> statement-breakpoint
CREATE TABLE "rags" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"name" text NOT NULL,
	"index_id" uuid NOT NULL,
	"prompt_id" uuid,
	"model_id" uuid,
	"fallback_text" text NOT NULL,
	"citations" boolean DEFAULT true NOT NULL,
	"max_context_chars" integer DEFAULT 6000 NOT NULL,
	"language" text DEFAULT 'auto' NOT NULL,
	"created_by" text,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rag_answers" ADD CONSTRAINT "rag_answers_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rag_answers" ADD CONSTRAINT "rag_answers_rag_id_rags_id_fk" FOREIGN KEY ("rag_id") REFERENCES "public"."rags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rags" ADD CONSTRAINT "rags_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rags" ADD CONSTRAINT "rags_model_id_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."models"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rags" ADD CONSTRAINT "rags_index_fk" FOREIGN KEY ("tenant_id","index_id") REFERENCES "public"."indexes"("tenant_id","id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rags" ADD CONSTRAINT "rags_prompt_fk" FOREIGN KEY ("tenant_id","prompt_id") REFERENCES "public"."prompts"("tenant_id","id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rag_answers_tenant_rag_idx" ON "rag_answers" USING btree ("tenant_id","rag_id","created_at");--> statement-breakpoint
CREATE INDEX "rag_answers_created_idx" ON "rag_answers" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "rags_tenant_name_key" ON "rags" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE INDEX "rags_tenant_index_idx" ON "rags" USING btree ("tenant_id","index_id");--> statement-breakpoint
CREATE INDEX "rags_tenant_prompt_idx" ON "rags" USING btree ("tenant_id","prompt_id");--> statement-breakpoint
CREATE INDEX "rags_model_idx" ON "rags" USING btree ("model_id");
