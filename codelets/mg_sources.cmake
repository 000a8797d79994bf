# Adaptive multigrid as task graphs (tasks/mg_transfer.c, tasks/coarse_op.c, solvers/mg.c;
# include/quarkflow/qf_multigrid.h): the transfer, build and coarse-operator codelets and their CUDA
# implementations, and Gaussian random fields for the setup's start vectors. Paths relative to the
# repository root; included by the top CMakeLists.txt.
set(QF_MG_C_SOURCES
  codelets/mg_pack.c
  codelets/mg_orthonormalize.c
  codelets/mg_restrict.c
  codelets/mg_prolong.c
  codelets/mg_build.c
  codelets/mg_assemble.c
  codelets/mg_coarse_gather.c
  codelets/mg_coarse_interior.c
  codelets/mg_coarse_exterior.c
  codelets/mg_coarse_solve.c
  codelets/mg_schur_invert.c
  codelets/field_gaussian.c
  tasks/mg_transfer.c
  tasks/coarse_op.c
  tasks/field_random.c)
set(QF_MG_CUDA_SOURCES
  codelets/mg_pack.cu
  codelets/mg_orthonormalize.cu
  codelets/mg_restrict.cu
  codelets/mg_prolong.cu
  codelets/mg_build.cu
  codelets/mg_assemble.cu
  codelets/mg_coarse_gather.cu
  codelets/mg_coarse_interior.cu
  codelets/mg_coarse_exterior.cu
  codelets/mg_coarse_solve.cu
  codelets/mg_schur_invert.cu
  codelets/field_gaussian.cu)
