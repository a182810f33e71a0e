CREATE TABLE "knowledge_source_pages" (
	"tenant_id" text NOT NULL,
	"source_id" uuid NOT NULL,
	"url" text NOT NULL,
	"position" integer NOT NULL,
	"etag" text,
	"last_modified" text,
	"content_hash" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "knowledge_source_pages_pkey" PRIMARY KEY("tenant_id","source_id","url")
);
--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD COLUMN "page_url" text;--> statement-breakpoint
ALTER TABLE "knowledge_sources" ADD COLUMN "sync_schedule" jsonb;--> statement-breakpoint
ALTER TABLE "knowledge_sources" ADD COLUMN "next_sync_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "knowledge_sources" ADD COLUMN "etag" text;--> statement-breakpoint
ALTER TABLE "knowledge_sources" ADD COLUMN "last_modified" text;--> statement-breakpoint
ALTER TABLE "knowledge_sources" ADD COLUMN "last_sync_outcome" text;--> statement-breakpoint
ALTER TABLE "knowledge_sources" ADD COLUMN "last_sync_message" text;--> statement-breakpoint
ALTER TABLE "knowledge_sources" ADD COLUMN "last_sync_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "knowledge_source_pages" ADD CONSTRAINT "knowledge_source_pages_source_fk" FOREIGN KEY ("tenant_id","source_id") REFERENCES "public"."knowledge_sources"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "knowledge_sources_next_sync_idx" ON "knowledge_sources" USING btree ("next_sync_at") WHERE "knowledge_sources"."next_sync_at" is not null;--> statement-breakpoint
ALTER TABLE "knowledge_sources" ADD CONSTRAINT "knowledge_sources_sync_outcome_check" CHECK ("knowledge_sources"."last_sync_outcome" is null or "knowledge_sources"."last_sync_outcome" in ('unchanged', 'changed', 'failed'));