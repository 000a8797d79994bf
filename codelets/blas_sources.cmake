# BLAS-1 on lattice fields and scalar arithmetic as task graphs (tasks/blas.c, tasks/scalar.c;
# include/quarkflow/qf_blas.h): the update, reduction, fused Krylov-update and scalar codelets and their
# CUDA implementations. Paths relative to the repository root; included by the top CMakeLists.txt.
set(QF_BLAS_C_SOURCES
  codelets/blas_insert.c
  codelets/blas_team.c
  codelets/chain.c
  codelets/blas_update.c
  codelets/blas_reduce.c
  codelets/blas_multi.c
  codelets/blas_shift.c
  codelets/blas_cg_update.c
  codelets/blas_bicgstab_update.c
  codelets/blas_bicgstab_p.c
  codelets/scalar_op.c
  codelets/scalar_trisolve.c
  codelets/data_publish.c
  tasks/blas.c
  tasks/scalar.c)
set(QF_BLAS_CUDA_SOURCES
  codelets/blas_update.cu
  codelets/blas_reduce.cu
  codelets/blas_multi.cu
  codelets/blas_shift.cu
  codelets/blas_cg_update.cu
  codelets/blas_bicgstab_update.cu
  codelets/blas_bicgstab_p.cu
  codelets/scalar_op.cu
  codelets/scalar_trisolve.cu
  codelets/data_publish.cu)
