package memstore

// The schemas of the two engines, side by side: each engine's list of
// migrations, append only, never edited, since the stores on disk were
// made by them. The same tables differ by engine in their types, in how
// PostgreSQL keys long names (sha256 columns) and searches (pg_trgm
// rather than FTS5), and in the memory_ prefix of PostgreSQL's tables,
// which share a schema with other applications'. A new migration of one
// engine usually wants its twin in the other.

// migrations is SQLite's ordered list of schema changes; migrations[i] brings
// the schema from user_version i to i+1. Append only, never edit.
var migrations = []string{
	// 1: initial schema.
	`
CREATE TABLE entities (
	id          INTEGER PRIMARY KEY, -- insertion order
	name        TEXT NOT NULL UNIQUE,
	entity_type TEXT NOT NULL,
	name_fold   TEXT NOT NULL        -- strings.ToLower(name), for completion
);
CREATE INDEX entities_name_fold ON entities(name_fold, name);

CREATE TABLE observations (
	id        INTEGER PRIMARY KEY,   -- insertion order; also the FTS rowid
	entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
	content   TEXT NOT NULL
);
CREATE INDEX observations_entity ON observations(entity_id);

-- Relations refer to entities by name and may dangle, as in the reference.
CREATE TABLE relations (
	id            INTEGER PRIMARY KEY, -- insertion order
	from_name     TEXT NOT NULL,
	to_name       TEXT NOT NULL,
	relation_type TEXT NOT NULL
);
CREATE INDEX relations_from ON relations(from_name, to_name, relation_type);
CREATE INDEX relations_to ON relations(to_name, from_name, relation_type);

-- Search indexes over text lower-cased in Go (jsLower). Contentless: they
-- hold only the trigram index; rowids are entities.id and observations.id,
-- each increasing in insertion order, which keeps FTS5 inserts cheap.
CREATE VIRTUAL TABLE search_names USING fts5(   -- lower(name) || char(10) || lower(entity_type)
	text, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1'
);
CREATE VIRTUAL TABLE search_obs USING fts5(     -- lower(content)
	text, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1'
);

CREATE TABLE tasks (
	id         INTEGER PRIMARY KEY AUTOINCREMENT,
	title      TEXT NOT NULL,
	status     TEXT NOT NULL CHECK (status IN ('open', 'in_progress', 'blocked', 'done')),
	notes      TEXT NOT NULL,
	created_at INTEGER NOT NULL, -- Unix nanoseconds
	updated_at INTEGER NOT NULL
);
CREATE INDEX tasks_status ON tasks(status);

CREATE TABLE task_entities (
	task_id     INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
	pos         INTEGER NOT NULL,
	entity_name TEXT NOT NULL,
	PRIMARY KEY (task_id, pos)
) WITHOUT ROWID;
CREATE INDEX task_entities_name ON task_entities(entity_name);

CREATE TABLE changes (
	seq      INTEGER PRIMARY KEY AUTOINCREMENT,
	kind     TEXT NOT NULL,
	subject  TEXT NOT NULL,
	detail   TEXT NOT NULL,
	rel_to   TEXT,
	rel_type TEXT,
	task_id  INTEGER,
	at       INTEGER NOT NULL -- Unix nanoseconds
);

CREATE TABLE meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
) WITHOUT ROWID;
`,
	// 2: the search index merger (tidy.go) merges two segments of the same
	// level, not four, so that few segments remain after writes.
	`
INSERT INTO search_names(search_names, rank) VALUES ('usermerge', 2);
INSERT INTO search_obs(search_obs, rank) VALUES ('usermerge', 2);
`,
	// 3: the search indexes may lag behind the tables (tail.go); everything
	// stored so far is indexed.
	`
CREATE TABLE search_tail (
	one        INTEGER PRIMARY KEY CHECK (one = 1), -- a single row
	names_upto INTEGER NOT NULL, -- entities with a higher id are not in search_names yet
	obs_upto   INTEGER NOT NULL  -- observations with a higher id are not in search_obs yet
);
INSERT INTO search_tail VALUES (1, (SELECT coalesce(max(id), 0) FROM entities), (SELECT coalesce(max(id), 0) FROM observations));
`,
	// 4: the search indexes keep no positions (detail=none). Searches
	// check every candidate row against the query (pieces.go), so
	// positions only served the phrase queries of four- and
	// five-character searches, now the AND of their trigrams; without
	// them every write and merge moves about half the bytes. Dropping
	// fold_version makes migrate rebuild both indexes.
	`
DROP TABLE search_names;
DROP TABLE search_obs;
CREATE VIRTUAL TABLE search_names USING fts5(
	text, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1', detail = none
);
CREATE VIRTUAL TABLE search_obs USING fts5(
	text, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1', detail = none
);
INSERT INTO search_names(search_names, rank) VALUES ('usermerge', 2);
INSERT INTO search_obs(search_obs, rank) VALUES ('usermerge', 2);
DELETE FROM meta WHERE key = 'fold_version';
`,
	// 5: the names index also holds each name's and type's four-character
	// runs (pieces.go). What is indexed from now on has them; the rows
	// indexed so far get them from the merger in idle time (pairs.go),
	// and searches ask for four-character pieces once none is left.
	`
INSERT INTO meta(key, value) SELECT 'pairs_pending', names_upto FROM search_tail WHERE names_upto > 0;
`,
	// 6: the audit trail: who made each change, and every entity's
	// history (kept far longer than the feed); the registry of the
	// store's named graphs (used in the default graph's file only).
	`
ALTER TABLE changes ADD COLUMN author TEXT NOT NULL DEFAULT 'local';

CREATE TABLE history (
	id       INTEGER PRIMARY KEY AUTOINCREMENT,
	entity   TEXT NOT NULL,
	seq      INTEGER NOT NULL,  -- the change's Seq in the feed
	kind     TEXT NOT NULL,
	detail   TEXT NOT NULL,
	rel_from TEXT,
	rel_to   TEXT,
	rel_type TEXT,
	author   TEXT NOT NULL,
	at       INTEGER NOT NULL   -- Unix nanoseconds
);
CREATE INDEX history_entity ON history(entity, id);

CREATE TABLE graphs (
	name       TEXT PRIMARY KEY,
	file       TEXT NOT NULL UNIQUE, -- the graph's database, relative to the graphs directory
	owner      TEXT NOT NULL,        -- the subject of a private graph, '' for a shared one
	created_at INTEGER NOT NULL
) WITHOUT ROWID;
`,
}

// pgMigrations is the ordered list of schema changes; pgMigrations[i]
// brings the schema from version i to i+1. Append only, never edit.
// "{trgm}" stands for the schema holding the pg_trgm extension.
var pgMigrations = []string{
	// 1: initial schema.
	`
CREATE SEQUENCE memory_entities_seq;
CREATE TABLE memory_entities (
	id          bigint PRIMARY KEY,              -- insertion order (from memory_entities_seq)
	name        text COLLATE "C" NOT NULL,       -- pgEnc(name)
	name_key    bytea NOT NULL UNIQUE,           -- sha256(pgEnc(name))
	entity_type text COLLATE "C" NOT NULL,       -- pgEnc(entityType)
	name_fold   text COLLATE "C" NOT NULL,       -- pgEnc(strings.ToLower(name)), for completion
	search      text COLLATE "C" NOT NULL        -- pgEnc(jsLower(name) + "\n" + jsLower(entityType))
);
CREATE INDEX memory_entities_name_fold ON memory_entities (left(name_fold, 100));
CREATE INDEX memory_entities_search ON memory_entities USING gin (search {trgm}.gin_trgm_ops);

CREATE SEQUENCE memory_observations_seq;
CREATE TABLE memory_observations (
	id        bigint PRIMARY KEY,                -- insertion order
	entity_id bigint NOT NULL REFERENCES memory_entities(id) ON DELETE CASCADE,
	content   text COLLATE "C" NOT NULL,         -- pgEnc(content)
	search    text COLLATE "C"                   -- pgEnc(jsLower(content)), NULL when equal to content
);
CREATE INDEX memory_observations_entity ON memory_observations (entity_id, id);
CREATE INDEX memory_observations_search ON memory_observations USING gin ((coalesce(search, content)) {trgm}.gin_trgm_ops);

-- Relations refer to entities by name and may dangle, as in the reference.
CREATE SEQUENCE memory_relations_seq;
CREATE TABLE memory_relations (
	id            bigint PRIMARY KEY,            -- insertion order
	from_name     text COLLATE "C" NOT NULL,
	to_name       text COLLATE "C" NOT NULL,
	relation_type text COLLATE "C" NOT NULL,
	triple_key    bytea NOT NULL                 -- relationKey(from, to, type)
);
CREATE INDEX memory_relations_key ON memory_relations (triple_key);
CREATE INDEX memory_relations_from ON memory_relations USING hash (from_name);
CREATE INDEX memory_relations_to ON memory_relations USING hash (to_name);

CREATE TABLE memory_tasks (
	id         bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
	title      text COLLATE "C" NOT NULL,
	status     text NOT NULL CHECK (status IN ('open', 'in_progress', 'blocked', 'done')),
	notes      text COLLATE "C" NOT NULL,
	created_at bigint NOT NULL,                  -- Unix nanoseconds
	updated_at bigint NOT NULL
);
CREATE INDEX memory_tasks_status ON memory_tasks (status);

CREATE TABLE memory_task_entities (
	task_id     bigint NOT NULL REFERENCES memory_tasks(id) ON DELETE CASCADE,
	pos         integer NOT NULL,
	entity_name text COLLATE "C" NOT NULL,
	PRIMARY KEY (task_id, pos)
);
CREATE INDEX memory_task_entities_name ON memory_task_entities USING hash (entity_name);

CREATE TABLE memory_changes (
	seq      bigint PRIMARY KEY,
	kind     text NOT NULL,
	subject  text COLLATE "C" NOT NULL,
	detail   text COLLATE "C" NOT NULL,
	rel_to   text COLLATE "C",
	rel_type text COLLATE "C",
	task_id  bigint,
	at       bigint NOT NULL                     -- Unix nanoseconds
);

-- The change feed's head: the highest seq ever assigned.
CREATE TABLE memory_feed (
	one  boolean PRIMARY KEY DEFAULT true CHECK (one),
	head bigint NOT NULL
);
INSERT INTO memory_feed (head) VALUES (0);

CREATE TABLE memory_meta (
	key   text PRIMARY KEY,
	value text NOT NULL
);
`,
	// 2: the audit trail: who made each change, and every entity's
	// history (kept far longer than the feed); the registry of the
	// store's named graphs (used in the base schema only).
	`
ALTER TABLE memory_changes ADD COLUMN author text COLLATE "C" NOT NULL DEFAULT 'local';

CREATE TABLE memory_history (
	id       bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
	entity   text COLLATE "C" NOT NULL,          -- pgEnc(name)
	seq      bigint NOT NULL,                    -- the change's seq in the feed
	kind     text NOT NULL,
	detail   text COLLATE "C" NOT NULL,
	rel_from text COLLATE "C",
	rel_to   text COLLATE "C",
	rel_type text COLLATE "C",
	author   text COLLATE "C" NOT NULL,
	at       bigint NOT NULL                     -- Unix nanoseconds
);
CREATE INDEX memory_history_entity ON memory_history USING hash (entity);

CREATE TABLE memory_graphs (
	name       text COLLATE "C" PRIMARY KEY,
	schema     text NOT NULL UNIQUE,             -- the graph's schema
	owner      text COLLATE "C" NOT NULL,        -- the subject of a private graph, '' for a shared one
	created_at bigint NOT NULL
);
`,
}
