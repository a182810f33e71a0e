ALTER TABLE "integrations" DROP CONSTRAINT "integrations_kind_check";--> statement-breakpoint
ALTER TABLE "integrations" DROP CONSTRAINT "integrations_engine_check";--> statement-breakpoint
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_kind_check" CHECK ("integrations"."kind" in ('chatbot', 'ccaas'));--> statement-breakpoint
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_engine_check" CHECK ("integrations"."engine" in ('builtin', 'openai', 'genesys', 'connect'));