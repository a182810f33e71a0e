CREATE TABLE "chunk_embeddings" (
	"model_id" uuid NOT NULL,
	"chunk_id" uuid NOT NULL,
	"tenant_id" text NOT NULL,
	"knowledge_base_id" uuid NOT NULL,
	"dimensions" integer NOT NULL,
	"embedding" real[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chunk_embeddings_pkey" PRIMARY KEY("model_id","chunk_id"),
	CONSTRAINT "chunk_embeddings_dimensions_check" CHECK ("chunk_embeddings"."dimensions" between 1 and 16000)
);
--> statement-breakpoint
ALTER TABLE "chunk_embeddings" ADD CONSTRAINT "chunk_embeddings_model_id_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chunk_embeddings" ADD CONSTRAINT "chunk_embeddings_chunk_id_knowledge_chunks_id_fk" FOREIGN KEY ("chunk_id") REFERENCES "public"."knowledge_chunks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chunk_embeddings_tenant_model_base_idx" ON "chunk_embeddings" USING btree ("tenant_id","model_id","knowledge_base_id");--> statement-breakpoint
CREATE INDEX "chunk_embeddings_chunk_idx" ON "chunk_embeddings" USING btree ("chunk_id");