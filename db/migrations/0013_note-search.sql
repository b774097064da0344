CREATE INDEX "conversation_notes_text_search_idx" ON "conversation_notes" USING gin (chorus_search_vector("text"));
