# The clover term as task graphs (tasks/clover.c): building A and A^-1 from the field strength and
# applying a clover field to colour-spinors, the codelets and their CUDA implementations. Paths
# relative to the repository root; included by the top CMakeLists.txt.
set(QF_CLOVER_C_SOURCES
  codelets/clover_build.c
  codelets/clover_apply.c
  tasks/clover.c)
set(QF_CLOVER_CUDA_SOURCES
  codelets/clover_build.cu
  codelets/clover_apply.cu)
