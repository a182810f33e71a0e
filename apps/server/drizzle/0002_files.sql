CREATE TABLE "file_uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"folder" text NOT NULL,
	"name" text NOT NULL,
	"size" bigint NOT NULL,
	"uploaded_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"path" text NOT NULL,
	"folder" text NOT NULL,
	"name" text NOT NULL,
	"size" bigint NOT NULL,
	"content_type" text NOT NULL,
	"sha256" text NOT NULL,
	"uploaded_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "folders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"path" text NOT NULL,
	"parent" text NOT NULL,
	"name" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "file_uploads" ADD CONSTRAINT "file_uploads_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "folders" ADD CONSTRAINT "folders_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "file_uploads_tenant_idx" ON "file_uploads" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "file_uploads_expires_idx" ON "file_uploads" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "files_tenant_path_idx" ON "files" USING btree ("tenant_id","path");--> statement-breakpoint
CREATE INDEX "files_tenant_folder_name_idx" ON "files" USING btree ("tenant_id","folder","name");--> statement-breakpoint
CREATE UNIQUE INDEX "folders_tenant_path_idx" ON "folders" USING btree ("tenant_id","path");--> statement-breakpoint
CREATE INDEX "folders_tenant_parent_name_idx" ON "folders" USING btree ("tenant_id","parent","name");