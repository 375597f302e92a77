#include <sqlite3.h>

/* sqlite3_db_config is variadic, which Swift cannot call: one fixed form. */
/* Closing the connection then leaves the log as it is instead of checkpointing it into the file. */
static inline int sqlite3_db_config_no_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
