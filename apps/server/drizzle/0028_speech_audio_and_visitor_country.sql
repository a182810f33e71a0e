CREATE TABLE "speech_audio_cache" (
	"tenant_id" text NOT NULL,
	"key" text NOT NULL,
	"audio" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "speech_audio_cache_tenant_id_key_pk" PRIMARY KEY("tenant_id","key")
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "country" text;--> statement-breakpoint
ALTER TABLE "speech_audio_cache" ADD CONSTRAINT "speech_audio_cache_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "speech_audio_cache_tenant_created_idx" ON "speech_audio_cache" USING btree ("tenant_id","created_at");