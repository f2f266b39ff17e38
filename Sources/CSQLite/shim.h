#include <sqlite3.h>

// Macros that do not import into Swift (casts or compound expressions), exposed as functions.

/// SQLITE_TRANSIENT: SQLite copies a bound text or blob before the bind call returns.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

/// SQLITE_CONSTRAINT_UNIQUE (2067): a UNIQUE index refused a duplicate.
static inline int csqlite_constraint_unique(void) { return SQLITE_CONSTRAINT_UNIQUE; }

/// SQLITE_CONSTRAINT_PRIMARYKEY (1555): a PRIMARY KEY refused a duplicate.
static inline int csqlite_constraint_primarykey(void) { return SQLITE_CONSTRAINT_PRIMARYKEY; }

/// Turns off SQLite's memory statistics, which take a global mutex on every allocation; must run
/// before the first connection opens. Returns SQLITE_OK, or SQLITE_MISUSE if SQLite already started.
static inline int csqlite_disable_memory_statistics(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }
