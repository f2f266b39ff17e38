#include <sqlite3.h>

// Macros that do not import into Swift (casts or compound expressions), exposed as functions.

/// SQLITE_TRANSIENT: SQLite copies a bound text or blob before the bind call returns.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

/// SQLITE_CONSTRAINT_UNIQUE (2067): a UNIQUE index refused a duplicate.
static inline int csqlite_constraint_unique(void) { return SQLITE_CONSTRAINT_UNIQUE; }

/// SQLITE_CONSTRAINT_PRIMARYKEY (1555): a PRIMARY KEY refused a duplicate.
static inline int csqlite_constraint_primarykey(void) { return SQLITE_CONSTRAINT_PRIMARYKEY; }
