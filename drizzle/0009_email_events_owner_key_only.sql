ALTER TABLE "email_events" DROP CONSTRAINT "email_events_campaign_id_campaigns_id_fk";
--> statement-breakpoint
ALTER TABLE "email_events" DROP CONSTRAINT "email_events_campaign_contact_id_campaign_contacts_id_fk";
--> statement-breakpoint
ALTER TABLE "email_events" DROP CONSTRAINT "email_events_outbox_message_id_outbox_messages_id_fk";
--> statement-breakpoint
ALTER TABLE "email_events" DROP CONSTRAINT "email_events_sender_account_id_sender_accounts_id_fk";
