/* The commands of quarkflow (apps/cmd_NAME.c), which main.c dispatches to: each takes the arguments
 * from the command's name on and returns the exit status. */
#ifndef QF_COMMANDS_H
#define QF_COMMANDS_H

int qf_cmd_info(int argc, char **argv);
int qf_cmd_gauge(int argc, char **argv);
int qf_cmd_links(int argc, char **argv);
int qf_cmd_apply(int argc, char **argv);
int qf_cmd_solve(int argc, char **argv);
int qf_cmd_propagator(int argc, char **argv);
int qf_cmd_bench(int argc, char **argv);
int qf_cmd_trace(int argc, char **argv);

#endif
