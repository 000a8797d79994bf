/* The benchmark drivers' entry points (bench/), all that the commands see of them: quarkflow bench
 * dispatches here (apps/cmd_bench.c). Each takes the arguments from the benchmark's name on and
 * returns the command's exit status. */
#ifndef QF_BENCH_H
#define QF_BENCH_H

/* bench/dslash_bench.c: quarkflow bench dslash */
int qf_bench_dslash(int argc, char **argv);
/* bench/kernel_bench.c: quarkflow bench kernels */
int qf_bench_kernels(int argc, char **argv);
/* bench/solver_bench.c: quarkflow bench solver */
int qf_bench_solver(int argc, char **argv);
/* bench/sched_bench.c: quarkflow bench sched */
int qf_bench_sched(int argc, char **argv);
/* bench/mg_bench.c: quarkflow bench mg */
int qf_bench_mg(int argc, char **argv);
/* bench/staggered_bench.c: quarkflow bench staggered */
int qf_bench_staggered(int argc, char **argv);
/* bench/tasks_bench.c: quarkflow bench tasks */
int qf_bench_tasks(int argc, char **argv);

#endif
