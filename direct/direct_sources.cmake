# The operator's kernels run without the runtime (include/quarkflow/qf_direct.h): the plan of one
# even-odd Mhat application on CPU threads and on the GPU, the memory-bandwidth ceilings, one block's
# CPU kernels alone, and the benchmarks' timing rule. Paths relative to the repository root; included
# by the top CMakeLists.txt.
set(QF_DIRECT_C_SOURCES
  direct/direct.c
  direct/ceiling.c
  direct/block.c
  direct/timing.c
  direct/probe.c)
set(QF_DIRECT_CUDA_SOURCES
  direct/direct_cuda.cu)
