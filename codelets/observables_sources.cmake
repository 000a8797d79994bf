# Observables beyond the plaquette, as task graphs: the Polyakov loop and the clover-leaf field
# strength (tasks/polyakov.c, tasks/field_strength.c), a propagator's point sources and time-slice
# correlators (tasks/propagator.c), their codelets and CUDA implementations.
# Paths relative to the repository root; included by the top CMakeLists.txt.
set(QF_OBSERVABLES_C_SOURCES
  codelets/polyakov_line.c
  codelets/polyakov_chain.c
  codelets/polyakov_trace.c
  codelets/plaquette_matrix.c
  codelets/leaf_transport.c
  codelets/leaf_sum.c
  codelets/field_point.c
  codelets/slice_sums.c
  tasks/polyakov.c
  tasks/field_strength.c
  tasks/propagator.c)
set(QF_OBSERVABLES_CUDA_SOURCES
  codelets/polyakov_line.cu
  codelets/polyakov_chain.cu
  codelets/polyakov_trace.cu
  codelets/plaquette_matrix.cu
  codelets/leaf_transport.cu
  codelets/leaf_sum.cu
  codelets/field_point.cu
  codelets/slice_sums.cu)
