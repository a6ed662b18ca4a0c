-- Decision 0068 (a save names what it started from): a user's notification settings carry a
-- revision (the sum of their two rows' counters). Every save adds one to each row it writes, and a
-- save naming the revision it was opened with is refused (409 notificationSettingsChangedMeanwhile)
-- when another save came between: a supervisor's form opened before the mechanic turned SMS on no
-- longer turns it off again unseen.
ALTER TABLE "notification_settings" ADD COLUMN "revision" integer DEFAULT 0 NOT NULL;
