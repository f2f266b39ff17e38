#include <libpq-fe.h>

// Character macros that do not import into Swift, exposed as functions.

/// PG_DIAG_SQLSTATE: the five-character SQLSTATE of an error result.
static inline int cpq_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }

/// PG_DIAG_CONSTRAINT_NAME: the constraint an integrity error is about.
static inline int cpq_diag_constraint_name(void) { return PG_DIAG_CONSTRAINT_NAME; }

/// PG_DIAG_MESSAGE_PRIMARY: the error message without detail, hint or context.
static inline int cpq_diag_message_primary(void) { return PG_DIAG_MESSAGE_PRIMARY; }

/// A notice processor that drops notices, which libpq would otherwise print to stderr.
static inline void cpq_ignore_notice(void *arg, const char *message) { (void)arg; (void)message; }

/// Silences notices ("relation already exists, skipping") on `conn`.
static inline void cpq_silence_notices(PGconn *conn) { PQsetNoticeProcessor(conn, cpq_ignore_notice, NULL); }
