CREATE TABLE "bot_test_cases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"bot_id" uuid NOT NULL,
	"question" text NOT NULL,
	"expected_text" text,
	"expected_source_id" uuid,
	"created_by" text,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bot_test_cases_expectation_check" CHECK ("bot_test_cases"."expected_text" is not null or "bot_test_cases"."expected_source_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "bot_test_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"bot_id" uuid NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"passed" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"results" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_by" text,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bot_test_runs_status_check" CHECK ("bot_test_runs"."status" in ('queued', 'running', 'done', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "bot_test_cases" ADD CONSTRAINT "bot_test_cases_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_test_cases" ADD CONSTRAINT "bot_test_cases_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_test_runs" ADD CONSTRAINT "bot_test_runs_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_test_runs" ADD CONSTRAINT "bot_test_runs_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bot_test_cases_tenant_bot_idx" ON "bot_test_cases" USING btree ("tenant_id","bot_id","created_at");--> statement-breakpoint
CREATE INDEX "bot_test_runs_tenant_bot_created_idx" ON "bot_test_runs" USING btree ("tenant_id","bot_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "bot_test_runs_one_active_key" ON "bot_test_runs" USING btree ("bot_id") WHERE "bot_test_runs"."status" in ('queued', 'running');