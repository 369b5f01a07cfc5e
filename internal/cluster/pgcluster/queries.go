package pgcluster

import "strings"

// queries holds the SQL, with the schema's quoted name filled in once.
type queries struct {
	migrate []string
	cleanup []string

	createSession, loadSession, updateSession, touchSession, deleteSession string
	putTask, loadTask, failDead, renew                                     string
	freshKey, addKey, keys                                                 string
	addMessage, loadMessage                                                string
	subscribe, unsubscribe, renewSubs, subscribers, dropSubs               string
}

func newQueries(schema string) queries {
	s := func(q string) string { return strings.ReplaceAll(q, "@.", schema+".") }
	return queries{
		migrate: []string{
			`CREATE SCHEMA IF NOT EXISTS ` + schema,
			s(`CREATE TABLE IF NOT EXISTS @.mcp_sessions (
				id text PRIMARY KEY,
				subject text NOT NULL,
				version text NOT NULL,
				client bytea,
				client_caps bytea,
				log_level text NOT NULL DEFAULT '',
				subscribed text[] NOT NULL DEFAULT '{}',
				initialized boolean NOT NULL DEFAULT false,
				created timestamptz NOT NULL,
				expires timestamptz NOT NULL)`),
			s(`CREATE INDEX IF NOT EXISTS mcp_sessions_expires ON @.mcp_sessions (expires)`),
			s(`CREATE TABLE IF NOT EXISTS @.mcp_tasks (
				id text PRIMARY KEY,
				subject text NOT NULL,
				owner text NOT NULL,
				status text NOT NULL,
				message text NOT NULL DEFAULT '',
				input_requests bytea,
				result bytea,
				error bytea,
				created timestamptz NOT NULL,
				updated timestamptz NOT NULL,
				expires timestamptz NOT NULL,
				lease timestamptz NOT NULL)`),
			s(`CREATE INDEX IF NOT EXISTS mcp_tasks_owner ON @.mcp_tasks (owner) WHERE status IN ('working', 'input_required')`),
			s(`CREATE TABLE IF NOT EXISTS @.mcp_signing_keys (
				id bigserial PRIMARY KEY,
				secret bytea NOT NULL,
				created timestamptz NOT NULL DEFAULT now())`),
			// The replicas subscribed to each prefix, renewed while their
			// listener is connected (Backend.Subscribers).
			s(`CREATE TABLE IF NOT EXISTS @.mcp_subscribers (
				replica text NOT NULL,
				prefix text NOT NULL,
				renewed timestamptz NOT NULL,
				PRIMARY KEY (replica, prefix))`),
			s(`CREATE TABLE IF NOT EXISTS @.mcp_messages (
				id bigserial PRIMARY KEY,
				payload bytea NOT NULL,
				created timestamptz NOT NULL DEFAULT now())`),
		},
		cleanup: []string{
			s(`DELETE FROM @.mcp_sessions WHERE expires < now()`),
			s(`DELETE FROM @.mcp_tasks WHERE expires < now()`),
			s(`DELETE FROM @.mcp_messages WHERE created < now() - interval '5 minutes'`),
			s(`DELETE FROM @.mcp_subscribers WHERE renewed < now() - interval '10 minutes'`),
		},
		createSession: s(`INSERT INTO @.mcp_sessions (id, subject, version, client, client_caps, log_level, subscribed, initialized, created, expires)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`),
		loadSession: s(`SELECT subject, version, client, client_caps, log_level, subscribed, initialized, created, expires
			FROM @.mcp_sessions WHERE id = $1 AND expires > now()`),
		// Each field from its stored value: a subscription added or removed
		// by one replica survives another's change of the same session.
		updateSession: s(`UPDATE @.mcp_sessions SET
			log_level = coalesce(nullif($2, ''), log_level),
			initialized = initialized OR $3,
			subscribed = array_remove(
				CASE WHEN $4 <> '' AND NOT ($4 = ANY(subscribed)) THEN array_append(subscribed, $4::text) ELSE subscribed END,
				nullif($5, '')),
			expires = greatest(expires, $6)
			WHERE id = $1
			RETURNING subject, version, client, client_caps, log_level, subscribed, initialized, created, expires`),
		touchSession:  s(`UPDATE @.mcp_sessions SET expires = greatest(expires, $2) WHERE id = $1`),
		deleteSession: s(`DELETE FROM @.mcp_sessions WHERE id = $1`),
		putTask: s(`INSERT INTO @.mcp_tasks (id, subject, owner, status, message, input_requests, result, error, created, updated, expires, lease)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, now() + make_interval(secs => $12))
			ON CONFLICT (id) DO UPDATE SET status = excluded.status, message = excluded.message,
				input_requests = excluded.input_requests, result = excluded.result, error = excluded.error,
				updated = excluded.updated, expires = excluded.expires, lease = excluded.lease
			WHERE @.mcp_tasks.status NOT IN ('completed', 'failed', 'cancelled')`),
		loadTask: s(`SELECT subject, owner, status, message, input_requests, result, error, created, updated, expires
			FROM @.mcp_tasks WHERE id = $1 AND expires > now()`),
		failDead: s(`UPDATE @.mcp_tasks SET status = 'failed', message = $1, error = $2, input_requests = NULL, result = NULL, updated = now()
			WHERE status IN ('working', 'input_required') AND lease < now()`),
		renew: s(`UPDATE @.mcp_tasks SET lease = now() + make_interval(secs => $2)
			WHERE owner = $1 AND status IN ('working', 'input_required')`),
		freshKey: s(`SELECT EXISTS (SELECT 1 FROM @.mcp_signing_keys WHERE created > now() - make_interval(secs => $1))`),
		addKey:   s(`INSERT INTO @.mcp_signing_keys (secret) VALUES ($1)`),
		keys: s(`SELECT secret FROM @.mcp_signing_keys
			WHERE created > now() - make_interval(secs => $1) ORDER BY created DESC, id DESC`),
		subscribe: s(`INSERT INTO @.mcp_subscribers (replica, prefix, renewed) VALUES ($1, $2, now())
			ON CONFLICT (replica, prefix) DO UPDATE SET renewed = now()`),
		unsubscribe: s(`DELETE FROM @.mcp_subscribers WHERE replica = $1 AND prefix = $2`),
		renewSubs: s(`INSERT INTO @.mcp_subscribers (replica, prefix, renewed) SELECT $1, p, now() FROM unnest($2::text[]) AS p
			ON CONFLICT (replica, prefix) DO UPDATE SET renewed = now()`),
		subscribers: s(`SELECT replica FROM @.mcp_subscribers WHERE prefix = $1 AND renewed > now() - make_interval(secs => $2)`),
		dropSubs:    s(`DELETE FROM @.mcp_subscribers WHERE replica = $1`),
		addMessage:  s(`INSERT INTO @.mcp_messages (payload) VALUES ($1) RETURNING id`),
		loadMessage: s(`SELECT payload FROM @.mcp_messages WHERE id = $1`),
	}
}
