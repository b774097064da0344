import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { ownedBy, tsvector } from "./columns";
import { documents } from "./profile";

// Smart features: passages of the business's own knowledge (the profile description and the
// documents' text), searched with PostgreSQL full-text search in the customer's language.

export const knowledgePassages = pgTable(
  "knowledge_passages",
  {
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    sourceType: text("source_type", { enum: ["description", "document"] }).notNull(),
    documentId: text("document_id").references(() => documents.id, { onDelete: "cascade" }),
    page: integer("page"),
    position: integer("position").notNull(),
    text: text("text").notNull(),
    // How the text was cut (lib/profile/knowledge.ts): older cuts are cut again on first use.
    cut: integer("cut").notNull().default(1),
    // One vector per language (accent-free text), so a query in the customer's language uses its stemmer.
    searchEn: tsvector("search_en").notNull(),
    searchEs: tsvector("search_es").notNull(),
    searchPt: tsvector("search_pt").notNull(),
  },
  (t) => [
    index("knowledge_passages_account_idx").on(t.accountId, t.sourceType, t.documentId),
    index("knowledge_passages_search_en_idx").using("gin", t.searchEn),
    index("knowledge_passages_search_es_idx").using("gin", t.searchEs),
    index("knowledge_passages_search_pt_idx").using("gin", t.searchPt),
  ],
);
