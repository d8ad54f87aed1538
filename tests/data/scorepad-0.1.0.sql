BEGIN TRANSACTION;
CREATE TABLE "_sqlite_migrations" (
   "id" INTEGER PRIMARY KEY,
   "migration_set" TEXT,
   "name" TEXT,
   "applied_at" TEXT
);
INSERT INTO "_sqlite_migrations" VALUES(1,'scorepad','m001_create_matches_and_hands','2026-11-28 11:26:47.875065+00:00');
INSERT INTO "_sqlite_migrations" VALUES(2,'scorepad','m002_store_derived_figures','2026-11-28 11:26:47.893158+00:00');
INSERT INTO "_sqlite_migrations" VALUES(3,'scorepad','m003_record_access_and_import_origin','2026-11-28 11:26:47.894300+00:00');
INSERT INTO "_sqlite_migrations" VALUES(4,'scorepad','m004_remember_hand_submissions','2026-11-28 11:26:47.894826+00:00');
INSERT INTO "_sqlite_migrations" VALUES(5,'scorepad','m005_hold_imported_matches_until_the_import_ends','2026-11-28 11:26:47.895323+00:00');
INSERT INTO "_sqlite_migrations" VALUES(6,'scorepad','m006_keep_counted_groups_as_groups','2026-11-28 11:26:47.895510+00:00');
INSERT INTO "_sqlite_migrations" VALUES(7,'scorepad','m007_record_organiser_sign_in','2026-11-28 11:26:47.912360+00:00');
INSERT INTO "_sqlite_migrations" VALUES(8,'scorepad','m008_create_club_nights','2026-11-28 11:26:47.931191+00:00');
CREATE TABLE "access" (
   "id" INTEGER PRIMARY KEY,
   "browser" TEXT NOT NULL,
   "match_id" TEXT NOT NULL REFERENCES "matches"("id"),
   "how" TEXT NOT NULL,
   "created" TEXT NOT NULL
);
CREATE TABLE "club_adjustments" (
   "id" INTEGER PRIMARY KEY,
   "event_id" TEXT NOT NULL REFERENCES "club_events"("id"),
   "round" INTEGER NOT NULL,
   "entrant" TEXT NOT NULL,
   "amount" INTEGER NOT NULL,
   "reason" TEXT NOT NULL,
   "created" TEXT NOT NULL
);
CREATE TABLE "club_announcements" (
   "id" INTEGER PRIMARY KEY,
   "event_id" TEXT NOT NULL REFERENCES "club_events"("id"),
   "text" TEXT NOT NULL,
   "created" TEXT NOT NULL
);
CREATE TABLE "club_corrections" (
   "id" INTEGER PRIMARY KEY,
   "event_id" TEXT NOT NULL REFERENCES "club_events"("id"),
   "round" INTEGER NOT NULL,
   "table_number" INTEGER NOT NULL,
   "reason" TEXT NOT NULL,
   "by" TEXT NOT NULL,
   "created" TEXT NOT NULL
);
CREATE TABLE "club_entrants" (
   "id" INTEGER PRIMARY KEY,
   "event_id" TEXT NOT NULL REFERENCES "club_events"("id"),
   "name" TEXT NOT NULL,
   "players" TEXT NOT NULL,
   "position" INTEGER NOT NULL,
   "joined_round" INTEGER NOT NULL,
   "withdrawn" TEXT,
   "created" TEXT NOT NULL
);
CREATE TABLE "club_events" (
   "id" TEXT PRIMARY KEY,
   "standings_token" TEXT NOT NULL,
   "name" TEXT NOT NULL,
   "date" TEXT NOT NULL,
   "settings" TEXT NOT NULL,
   "seed" INTEGER NOT NULL,
   "draw" TEXT,
   "created" TEXT NOT NULL,
   "updated" TEXT NOT NULL,
   "version" INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE "club_rounds" (
   "event_id" TEXT NOT NULL REFERENCES "club_events"("id"),
   "number" INTEGER NOT NULL,
   "seated" TEXT NOT NULL,
   "started" TEXT,
   "ends" TEXT,
   "closed" TEXT,
   PRIMARY KEY ("event_id", "number")
);
CREATE TABLE "club_table_cards" (
   "token" TEXT PRIMARY KEY,
   "event_id" TEXT NOT NULL REFERENCES "club_events"("id"),
   "number" INTEGER NOT NULL
);
CREATE TABLE "club_tables" (
   "id" INTEGER PRIMARY KEY,
   "event_id" TEXT NOT NULL REFERENCES "club_events"("id"),
   "round" INTEGER NOT NULL,
   "number" INTEGER NOT NULL,
   "north_south" TEXT,
   "east_west" TEXT,
   "match_id" TEXT REFERENCES "matches"("id"),
   "no_show" TEXT,
   "confirmed_ns" INTEGER,
   "confirmed_ew" INTEGER,
   "disputed" TEXT,
   "dispute_note" TEXT,
   "accepted" TEXT
);
CREATE TABLE "hand_figures" (
   "hand_id" INTEGER PRIMARY KEY REFERENCES "hands"("id"),
   "match_id" TEXT NOT NULL REFERENCES "matches"("id"),
   "number" INTEGER NOT NULL,
   "scores" TEXT NOT NULL,
   "totals" TEXT NOT NULL,
   "minimums" TEXT NOT NULL,
   "canastas" TEXT NOT NULL,
   "red_threes" TEXT NOT NULL,
   "detail" TEXT NOT NULL
);
INSERT INTO "hand_figures" VALUES(1,'0de2c44245983e9c4faff9d8c5eb577a',1,'[1220, 165]','[1220, 165]','[50, 50]','[1, 0]','[0, 0]','{"breakdown": [{"score": 1220, "parts": [{"id": "canastas.natural", "label": "Natural canasta \u00d7 1 (at 500)", "points": 500}, {"id": "going_out", "label": "Going out", "points": 100}, {"id": "melded_points", "label": "Melded cards", "points": 620}, {"id": "hand_points", "label": "Cards left in hand", "points": 0}]}, {"score": 165, "parts": [{"id": "melded_points", "label": "Melded cards", "points": 260}, {"id": "hand_points", "label": "Cards left in hand", "points": -95}]}], "warnings": []}');
INSERT INTO "hand_figures" VALUES(2,'0de2c44245983e9c4faff9d8c5eb577a',2,'[1220, 165]','[2440, 330]','[50, 50]','[1, 0]','[0, 0]','{"breakdown": [{"score": 1220, "parts": [{"id": "canastas.natural", "label": "Natural canasta \u00d7 1 (at 500)", "points": 500}, {"id": "going_out", "label": "Going out", "points": 100}, {"id": "melded_points", "label": "Melded cards", "points": 620}, {"id": "hand_points", "label": "Cards left in hand", "points": 0}]}, {"score": 165, "parts": [{"id": "melded_points", "label": "Melded cards", "points": 260}, {"id": "hand_points", "label": "Cards left in hand", "points": -95}]}], "warnings": []}');
CREATE TABLE "hand_revisions" (
   "id" INTEGER PRIMARY KEY,
   "hand_id" INTEGER NOT NULL REFERENCES "hands"("id"),
   "revision" INTEGER NOT NULL,
   "action" TEXT NOT NULL,
   "data" TEXT,
   "match_version" INTEGER NOT NULL,
   "created" TEXT NOT NULL
, "submission" TEXT);
INSERT INTO "hand_revisions" VALUES(1,1,1,'add','{"entries": [{"canastas": {"natural": 1}, "melded_points": 620, "went_out": true}, {"hand_points": 95, "melded_points": 260}]}',2,'2026-11-28T11:26:48+00:00',NULL);
INSERT INTO "hand_revisions" VALUES(2,2,1,'add','{"entries": [{"canastas": {"natural": 1}, "melded_points": 620, "went_out": true}, {"hand_points": 95, "melded_points": 260}]}',3,'2026-11-28T11:26:48+00:00',NULL);
CREATE TABLE "hands" (
   "id" INTEGER PRIMARY KEY,
   "match_id" TEXT NOT NULL REFERENCES "matches"("id"),
   "position" INTEGER NOT NULL,
   "data" TEXT NOT NULL,
   "created" TEXT NOT NULL,
   "deleted" TEXT
);
INSERT INTO "hands" VALUES(1,'0de2c44245983e9c4faff9d8c5eb577a',1,'{"entries": [{"canastas": {"natural": 1}, "melded_points": 620, "went_out": true}, {"hand_points": 95, "melded_points": 260}]}','2026-11-28T11:26:48+00:00',NULL);
INSERT INTO "hands" VALUES(2,'0de2c44245983e9c4faff9d8c5eb577a',2,'{"entries": [{"canastas": {"natural": 1}, "melded_points": 620, "went_out": true}, {"hand_points": 95, "melded_points": 260}]}','2026-11-28T11:26:48+00:00',NULL);
CREATE TABLE "match_players" (
   "id" INTEGER PRIMARY KEY,
   "match_id" TEXT NOT NULL REFERENCES "matches"("id"),
   "side" INTEGER NOT NULL,
   "kind" TEXT NOT NULL,
   "key" TEXT NOT NULL,
   "name" TEXT NOT NULL
);
INSERT INTO "match_players" VALUES(1,'0de2c44245983e9c4faff9d8c5eb577a',0,'player','ann','Ann');
INSERT INTO "match_players" VALUES(2,'0de2c44245983e9c4faff9d8c5eb577a',0,'player','bob','Bob');
INSERT INTO "match_players" VALUES(3,'0de2c44245983e9c4faff9d8c5eb577a',0,'team','ann & bob','Ann & Bob');
INSERT INTO "match_players" VALUES(4,'0de2c44245983e9c4faff9d8c5eb577a',1,'player','cy','Cy');
INSERT INTO "match_players" VALUES(5,'0de2c44245983e9c4faff9d8c5eb577a',1,'player','di','Di');
INSERT INTO "match_players" VALUES(6,'0de2c44245983e9c4faff9d8c5eb577a',1,'team','cy & di','Cy & Di');
CREATE TABLE "match_summaries" (
   "match_id" TEXT PRIMARY KEY REFERENCES "matches"("id"),
   "version" INTEGER NOT NULL,
   "variant_name" TEXT NOT NULL,
   "hands" INTEGER NOT NULL,
   "totals" TEXT NOT NULL,
   "next_minimums" TEXT NOT NULL,
   "is_finished" INTEGER NOT NULL,
   "is_tie" INTEGER NOT NULL,
   "winner" INTEGER,
   "margin" INTEGER,
   "last_played" TEXT,
   "names" TEXT
);
INSERT INTO "match_summaries" VALUES('0de2c44245983e9c4faff9d8c5eb577a',3,'Classic canasta',2,'[2440, 330]','[90, 50]',0,0,NULL,2110,'2026-11-28T11:26:48+00:00','friday
we
they
ann
bob
cy
di');
CREATE TABLE "matches" (
   "id" TEXT PRIMARY KEY,
   "watch_token" TEXT NOT NULL,
   "variant" TEXT NOT NULL,
   "options" TEXT NOT NULL,
   "sides" TEXT NOT NULL,
   "starting_totals" TEXT,
   "title" TEXT DEFAULT '',
   "created" TEXT NOT NULL,
   "updated" TEXT NOT NULL,
   "finished" TEXT,
   "deleted" TEXT,
   "version" INTEGER NOT NULL DEFAULT 1
, "origin" TEXT, "pending" TEXT);
INSERT INTO "matches" VALUES('0de2c44245983e9c4faff9d8c5eb577a','2b4a389b4fc7040e3f18b6b285b8ee5c','classic','{"target": 5000, "decks": 2, "jokers_per_deck": 2, "canastas_to_go_out": 1, "harder_first_meld": false, "tough_end": false, "canasta_required_for_positive": false, "wild_canasta": "none", "sequences": false, "black_three_in_hand": 5, "pile_always_frozen": false, "pickup_with_wild": true, "pickup_onto_canasta": true, "max_wilds": 3, "wilds_not_more_than_naturals": true, "black_three_freezes": false, "top_counts_for_minimum": true, "restore_pile_penalty": 0, "max_hands": null}','[{"name": "We", "players": ["Ann", "Bob"]}, {"name": "They", "players": ["Cy", "Di"]}]',NULL,'Friday','2026-11-28T11:26:47+00:00','2026-11-28T11:26:48+00:00',NULL,NULL,3,NULL,NULL);
CREATE TABLE "organiser_sign_in" (
   "id" INTEGER PRIMARY KEY,
   "failures" INTEGER NOT NULL DEFAULT 0,
   "next_try" REAL NOT NULL DEFAULT 0.0,
   "generation" INTEGER NOT NULL DEFAULT 1,
   "device_generation" INTEGER NOT NULL DEFAULT 1
);
INSERT INTO "organiser_sign_in" VALUES(1,0,0.0,1,1);
CREATE TABLE "side_figures" (
   "match_id" TEXT REFERENCES "matches"("id"),
   "side" INTEGER,
   "name" TEXT NOT NULL,
   "total" INTEGER NOT NULL,
   "outcome" TEXT NOT NULL,
   "hands" INTEGER NOT NULL,
   "points" INTEGER NOT NULL,
   "best_hand" INTEGER,
   "canastas" INTEGER NOT NULL,
   "red_threes" INTEGER NOT NULL,
   PRIMARY KEY ("match_id", "side")
);
INSERT INTO "side_figures" VALUES('0de2c44245983e9c4faff9d8c5eb577a',0,'We',2440,'playing',2,2440,1220,2,0);
INSERT INTO "side_figures" VALUES('0de2c44245983e9c4faff9d8c5eb577a',1,'They',330,'playing',2,330,165,0,0);
CREATE UNIQUE INDEX "idx__sqlite_migrations_migration_set_name"
    ON "_sqlite_migrations" ("migration_set", "name");
CREATE UNIQUE INDEX "idx_matches_watch_token"
    ON "matches" ("watch_token");
CREATE UNIQUE INDEX "idx_hands_match_id_position"
    ON "hands" ("match_id", "position");
CREATE UNIQUE INDEX "idx_hand_revisions_hand_id_revision"
    ON "hand_revisions" ("hand_id", "revision");
CREATE UNIQUE INDEX "idx_hand_figures_match_id_number"
    ON "hand_figures" ("match_id", "number");
CREATE INDEX "idx_match_players_key_match_id"
    ON "match_players" ("key", "match_id");
CREATE INDEX "idx_match_players_match_id"
    ON "match_players" ("match_id");
CREATE INDEX "idx_matches_updated_id"
    ON "matches" ("updated", "id");
CREATE INDEX idx_matches_deleted on matches(deleted) where deleted is not null;
CREATE UNIQUE INDEX "idx_access_browser_match_id"
    ON "access" ("browser", "match_id");
CREATE INDEX "idx_access_match_id"
    ON "access" ("match_id");
CREATE INDEX "idx_matches_origin"
    ON "matches" ("origin");
CREATE UNIQUE INDEX idx_hand_revisions_submission on hand_revisions(submission) where submission is not null;
CREATE INDEX idx_matches_pending on matches(pending) where pending is not null;
CREATE UNIQUE INDEX "idx_club_events_standings_token"
    ON "club_events" ("standings_token");
CREATE UNIQUE INDEX "idx_club_entrants_event_id_name"
    ON "club_entrants" ("event_id", "name");
CREATE UNIQUE INDEX "idx_club_tables_event_id_round_number"
    ON "club_tables" ("event_id", "round", "number");
CREATE INDEX "idx_club_tables_match_id"
    ON "club_tables" ("match_id");
CREATE UNIQUE INDEX "idx_club_table_cards_event_id_number"
    ON "club_table_cards" ("event_id", "number");
COMMIT;
