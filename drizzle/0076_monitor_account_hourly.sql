CREATE TABLE "platform_account_hourly" (
	"sender_account_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"type" text NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "platform_account_hourly_sender_account_id_hour_type_pk" PRIMARY KEY("sender_account_id","hour","type")
);
--> statement-breakpoint
CREATE INDEX "platform_account_hourly_hour_idx" ON "platform_account_hourly" USING btree ("hour");--> statement-breakpoint
CREATE INDEX "outbox_messages_deferred_account_idx" ON "outbox_messages" USING btree ("sender_account_id") WHERE "outbox_messages"."state" = 'queued' and "outbox_messages"."attempts" > 0;