CREATE TABLE "live_provider_sessions" (
	"conversation_id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"integration_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"status" text DEFAULT 'starting' NOT NULL,
	"sealed_state" text,
	"holder" text,
	"lease_until" timestamp with time zone DEFAULT now() NOT NULL,
	"last_inbound_at" timestamp with time zone,
	"failures" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "live_provider_sessions_provider_check" CHECK ("live_provider_sessions"."provider" in ('genesys', 'connect')),
	CONSTRAINT "live_provider_sessions_status_check" CHECK ("live_provider_sessions"."status" in ('starting', 'active'))
);
--> statement-breakpoint
ALTER TABLE "conversation_messages" ADD COLUMN "delivery" text;--> statement-breakpoint
ALTER TABLE "conversation_messages" ADD COLUMN "provider_message_id" text;--> statement-breakpoint
ALTER TABLE "live_provider_sessions" ADD CONSTRAINT "live_provider_sessions_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_provider_sessions" ADD CONSTRAINT "live_provider_sessions_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "live_provider_sessions_lease_idx" ON "live_provider_sessions" USING btree ("lease_until");--> statement-breakpoint
CREATE UNIQUE INDEX "conversation_messages_provider_message_key" ON "conversation_messages" USING btree ("conversation_id","provider_message_id");--> statement-breakpoint
CREATE INDEX "conversation_messages_pending_idx" ON "conversation_messages" USING btree ("conversation_id","created_at") WHERE "conversation_messages"."delivery" = 'pending';--> statement-breakpoint
ALTER TABLE "conversation_messages" ADD CONSTRAINT "conversation_messages_delivery_check" CHECK ("conversation_messages"."delivery" in ('pending', 'sent', 'failed'));