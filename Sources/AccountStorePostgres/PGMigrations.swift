import AccountStoreSQL

/// The PostgreSQL schema, one SQL script per version, oldest first: version N is `steps[N - 1]`.
///
/// Version 1 is ``SchemaBaseline`` in PostgreSQL's spelling (`BYTEA` for bytes, `BOOLEAN` flags,
/// unique keys in collation "C") and the triggers that announce changes to other servers' read
/// models. The tables and queries avoid PostgreSQL-only features, but the triggers (PL/pgSQL,
/// `NOTIFY`) and the `COLLATE "C"` keys do not, so the schema needs PostgreSQL itself (CockroachDB
/// has no `LISTEN`). Never edit a step that has shipped; append a new one (and its SQLite twin).
enum PGMigrations {
    static let steps: [String] = [SchemaBaseline.script(.postgres) + "\n" + readModelNotifications]

    /// Every change of what a server's read model holds is announced to the others, in the writing
    /// transaction (delivered only if and when it commits), whoever writes: a server, an
    /// `account-server` command, an operator's SQL. `s<session id>` for a session row deleted (a
    /// cascade from its account too) or updated in what a model holds, except a last use moved
    /// forward (a refresh, which would otherwise notify on every rotation: PostgreSQL serializes
    /// notifying commits, their disk flush included; see `PostgresAccountStore` for how a held
    /// session's older last use is handled; a refresh from a new address announces once),
    /// `u<account id>` for an account row updated or deleted, `*` when either table is truncated.
    /// `ENABLE ALWAYS`: they fire in replica mode too (`session_replication_role`). See
    /// `PGChangeListener`. No index names `last_used_at` or `client_address`, so a refresh stays a
    /// HOT update.
    static let readModelNotifications = """
        CREATE FUNCTION account_read_model_session() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('account_read_model', 's' || OLD.id);
            RETURN NULL;
        END $$;
        CREATE FUNCTION account_read_model_user() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('account_read_model', 'u' || OLD.id);
            RETURN NULL;
        END $$;
        CREATE FUNCTION account_read_model_all() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('account_read_model', '*');
            RETURN NULL;
        END $$;
        CREATE TRIGGER sessions_read_model AFTER UPDATE ON sessions FOR EACH ROW
            WHEN (NEW.last_used_at < OLD.last_used_at
                OR (NEW.id, NEW.user_id, NEW.created_at, NEW.expires_at, NEW.user_agent, NEW.revoked_at, NEW.amr, NEW.client_address)
                    IS DISTINCT FROM
                    (OLD.id, OLD.user_id, OLD.created_at, OLD.expires_at, OLD.user_agent, OLD.revoked_at, OLD.amr, OLD.client_address))
            EXECUTE FUNCTION account_read_model_session();
        CREATE TRIGGER sessions_read_model_delete AFTER DELETE ON sessions
            FOR EACH ROW EXECUTE FUNCTION account_read_model_session();
        CREATE TRIGGER users_read_model AFTER UPDATE OR DELETE ON users
            FOR EACH ROW EXECUTE FUNCTION account_read_model_user();
        CREATE TRIGGER sessions_read_model_truncate AFTER TRUNCATE ON sessions
            FOR EACH STATEMENT EXECUTE FUNCTION account_read_model_all();
        CREATE TRIGGER users_read_model_truncate AFTER TRUNCATE ON users
            FOR EACH STATEMENT EXECUTE FUNCTION account_read_model_all();
        ALTER TABLE sessions ENABLE ALWAYS TRIGGER sessions_read_model;
        ALTER TABLE sessions ENABLE ALWAYS TRIGGER sessions_read_model_delete;
        ALTER TABLE users ENABLE ALWAYS TRIGGER users_read_model;
        ALTER TABLE sessions ENABLE ALWAYS TRIGGER sessions_read_model_truncate;
        ALTER TABLE users ENABLE ALWAYS TRIGGER users_read_model_truncate;
        """
}
