/* callbacks.h - the driver's SQLite callbacks (collation, scalar and aggregate
 * functions, exec row callback).  SQLite calls each of them through a function
 * pointer; the collation is reached by an indirect tail call with five arguments
 * (vdbeCompareMemString), the shape a trampoline that clobbers r11 breaks. */
#ifndef RW_CALLBACKS_H
#define RW_CALLBACKS_H

#include "sqlite3.h"

/* Registers collation "rune", functions "score(a, b)" and "spread(x)" on db.
 * Returns SQLITE_OK or the first error code. */
int register_callbacks(sqlite3 *db);

/* sqlite3_exec row callback: folds every column of a row into *(unsigned long *)arg. */
int fold_row(void *arg, int ncol, char **values, char **names);

#endif
