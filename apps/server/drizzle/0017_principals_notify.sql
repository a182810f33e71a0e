-- Every process caches resolved API credentials and forgets them all when a row they depend on changes.
CREATE FUNCTION "omnibot_principals_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('omnibot_principals', '');
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "credentials_principals_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "credentials"
  FOR EACH STATEMENT EXECUTE FUNCTION "omnibot_principals_changed"();--> statement-breakpoint
CREATE TRIGGER "tenants_principals_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "tenants"
  FOR EACH STATEMENT EXECUTE FUNCTION "omnibot_principals_changed"();--> statement-breakpoint
CREATE TRIGGER "subscriptions_principals_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "subscriptions"
  FOR EACH STATEMENT EXECUTE FUNCTION "omnibot_principals_changed"();
