ALTER TABLE "models" DROP CONSTRAINT "models_kind_check";--> statement-breakpoint
ALTER TABLE "models" ADD CONSTRAINT "models_kind_check" CHECK ("models"."kind" in ('chat', 'embedding', 'speech'));