CREATE TABLE "model_shares" (
	"model_id" uuid NOT NULL,
	"tenant_id" text NOT NULL,
	CONSTRAINT "model_shares_model_id_tenant_id_pk" PRIMARY KEY("model_id","tenant_id")
);
--> statement-breakpoint
CREATE TABLE "models" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"base_url" text NOT NULL,
	"model_name" text NOT NULL,
	"api_key_encrypted" text,
	"api_key_last4" text,
	"max_tokens" integer DEFAULT 1024 NOT NULL,
	"temperature" real DEFAULT 0.7 NOT NULL,
	"dimensions" integer,
	"shared_with_all" boolean DEFAULT false NOT NULL,
	"created_by" text,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "models_kind_check" CHECK ("models"."kind" in ('chat', 'embedding'))
);
--> statement-breakpoint
ALTER TABLE "model_shares" ADD CONSTRAINT "model_shares_model_id_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "model_shares" ADD CONSTRAINT "model_shares_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "models" ADD CONSTRAINT "models_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "model_shares_tenant_idx" ON "model_shares" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "models_tenant_idx" ON "models" USING btree ("tenant_id","name");