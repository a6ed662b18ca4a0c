-- Decision 0069: a notification's subject and body in the recipient's language (when it is not
-- English), written when it is recorded, so the list's search finds the words the reader sees.
-- Rows recorded before keep NULL: their search reads the English text as before.
ALTER TABLE "notifications" ADD COLUMN "reader_text" text;
