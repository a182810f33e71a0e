CREATE TABLE "case_summary_config_bots" (
	"bot_id" uuid PRIMARY KEY NOT NULL,
	"config_id" uuid NOT NULL,
	"tenant_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "case_summary_configs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"name" text NOT NULL,
	"model_id" uuid,
	"sections" jsonb NOT NULL,
	"max_chars" integer NOT NULL,
	"triggers" jsonb NOT NULL,
	"created_by" text,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "conversation_summaries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"conversation_id" uuid NOT NULL,
	"bot_id" uuid NOT NULL,
	"trigger" text NOT NULL,
	"method" text NOT NULL,
	"model_name" text,
	"text" text NOT NULL,
	"sections" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "conversation_summaries_trigger_check" CHECK ("conversation_summaries"."trigger" in ('handover', 'close')),
	CONSTRAINT "conversation_summaries_method_check" CHECK ("conversation_summaries"."method" in ('model', 'extractive'))
);
--> statement-breakpoint
ALTER TABLE "case_summary_config_bots" ADD CONSTRAINT "case_summary_config_bots_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_summary_config_bots" ADD CONSTRAINT "case_summary_config_bots_config_id_case_summary_configs_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."case_summary_configs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_summary_config_bots" ADD CONSTRAINT "case_summary_config_bots_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_summary_configs" ADD CONSTRAINT "case_summary_configs_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_summary_configs" ADD CONSTRAINT "case_summary_configs_model_id_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."models"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_summaries" ADD CONSTRAINT "conversation_summaries_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_summaries" ADD CONSTRAINT "conversation_summaries_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_summaries" ADD CONSTRAINT "conversation_summaries_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "case_summary_config_bots_config_idx" ON "case_summary_config_bots" USING btree ("config_id");--> statement-breakpoint
CREATE UNIQUE INDEX "case_summary_configs_tenant_name_key" ON "case_summary_configs" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE INDEX "case_summary_configs_model_idx" ON "case_summary_configs" USING btree ("model_id");--> statement-breakpoint
CREATE INDEX "conversation_summaries_conversation_idx" ON "conversation_summaries" USING btree ("conversation_id","created_at");