/* The quarkflow command line: shared option handling of the subcommands. Apps talk to the public
 * API (quarkflow.h) only. */
#ifndef QF_APP_H
#define QF_APP_H

#include "quarkflow.h"

#include <stdio.h>

/* Options every command accepts, parsed and removed from argv before the subcommand sees it. */
typedef struct {
    qf_runtime_options runtime;
    int verbose;
} qf_app_globals;

extern qf_app_globals qf_app;

/* Prints "quarkflow: error: <qf_last_error()>" and returns the exit status 1. */
int qf_app_error(void);
/* Prints a usage error for the command and returns exit status 2. */
int qf_app_usage_error(const char *command, const char *fmt, ...);

/* Starts the runtime with the global options (and prints the machine with --verbose). */
int qf_app_start(int *argc, char ***argv);
void qf_app_stop(void);

/* Option parsing helpers: each consumes its values and advances *i; they return 0 or an exit status. */
int qf_app_int(const char *command, int argc, char **argv, int *i, int *out);
int qf_app_dims(const char *command, int argc, char **argv, int *i, int out[4]);

/* Chooses the block grid: the user's, or a default that gives every worker several blocks. */
int qf_app_lattice(qf_lattice *lat, const int dims[4], const int blocks_opt[4], int min_block_extent);

/* The global options' help text. */
extern const char qf_app_global_help[];

int qf_cmd_info(int argc, char **argv);
int qf_cmd_gauge(int argc, char **argv);

#endif
