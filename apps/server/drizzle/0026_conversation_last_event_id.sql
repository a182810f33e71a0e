ALTER TABLE "conversations" ADD COLUMN "last_event_id" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Conversations with events before this column existed start from their newest one.
UPDATE "conversations" c
SET "last_event_id" = e."last_id"
FROM (SELECT "conversation_id", max("id") AS "last_id" FROM "conversation_events" GROUP BY "conversation_id") e
WHERE c."id" = e."conversation_id";
