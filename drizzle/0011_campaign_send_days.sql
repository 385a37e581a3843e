CREATE TABLE "campaign_send_days" (
	"campaign_id" uuid NOT NULL,
	"day" date NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "campaign_send_days_campaign_id_day_pk" PRIMARY KEY("campaign_id","day"),
	CONSTRAINT "campaign_send_days_sent_check" CHECK ("campaign_send_days"."sent" >= 0)
);
--> statement-breakpoint
ALTER TABLE "campaign_send_days" ADD CONSTRAINT "campaign_send_days_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;